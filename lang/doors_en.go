package lang

// The messages of the checks that keep the log's doors shut (docs/security.md): serve's word on
// open writes, the stream checks of verify, init and the read-only commands, and passwd.
var _ = extend("en", map[string]Text{
	"serve.writes-open": {Other: "writes are OPEN: without --auth, anyone who can reach {url} may append events to the log (POST /api/events); give --auth FILE to require credentials"},
	"serve.writes-auth": {Other: "writes need credentials: POST /api/events takes the table devices and app users of {file}"},
	"stream.missing":    {Other: "the stream {stream} does not exist, and this command creates nothing: set the log up with 'fechado init' (or record into it)"},
	"stream.differs":    {Other: "the stream {stream} is not configured as docs/stream.md requires: {what}"},
	"init.created":      {Other: "created the stream {stream} with {replicas} replicas, configured as docs/stream.md requires"},
	"init.exists":       {Other: "the stream {stream} exists, configured as docs/stream.md requires: nothing to do"},
	"passwd.prompt":     {Other: "Password: "},
	"passwd.empty":      {Other: "the password is empty"},
	"passwd.cost":       {Other: "--cost must be between {min} and {max}"},
})
