// Package schema owns the machine-readable schemas of fechado's data: the JSON Schema (draft
// 2020-12) of the event log of events-v1.md, which other implementations can validate against,
// and room for the SQL migrations of the read models (migrations/). The JSON Schema accepts
// exactly what events.Parse accepts, except for the few gaps it documents itself; a test keeps
// the two in step.
package schema

import _ "embed"

// EventsV1 is the JSON Schema (draft 2020-12) of one event of the version 1 log: the envelope of
// events-v1.md §2 and, selected by type, the data of each type of §4. It is the file
// schema/events-v1.schema.json, embedded.
//
//go:embed events-v1.schema.json
var EventsV1 []byte

// EventsV1ID is the $id of EventsV1, the URL to compile it under.
const EventsV1ID = "https://github.com/fechado/fechado/schema/events-v1.schema.json"
