package schema

import "embed"

// Migrations holds the SQL migrations of the SQLite read models, migrations/NNNN_name.sql. They
// are applied in the order of their numbers, each in its own transaction, and a migration once
// released is never edited: a change is a new file. The projector package applies them.
//
//go:embed migrations/*.sql
var Migrations embed.FS
