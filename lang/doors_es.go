package lang

var _ = extend("es", map[string]Text{
	"serve.writes-open": {Other: "la escritura está ABIERTA: sin --auth, cualquiera que alcance {url} puede añadir eventos al registro (POST /api/events); indique --auth ARCHIVO para exigir credenciales"},
	"serve.writes-auth": {Other: "la escritura exige credenciales: POST /api/events acepta los dispositivos de mesa y los usuarios app de {file}"},
	"stream.missing":    {Other: "el stream {stream} no existe, y este comando no crea nada: prepare el registro con 'fechado init' (o grabando en él)"},
	"stream.differs":    {Other: "el stream {stream} no está configurado como exige docs/stream.md: {what}"},
	"init.created":      {Other: "se creó el stream {stream} con {replicas} réplicas, configurado como exige docs/stream.md"},
	"init.exists":       {Other: "el stream {stream} existe y está configurado como exige docs/stream.md: nada que hacer"},
	"passwd.prompt":     {Other: "Contraseña: "},
	"passwd.empty":      {Other: "la contraseña está vacía"},
	"passwd.cost":       {Other: "--cost debe estar entre {min} y {max}"},
})
