package lang

// Las palabras del registro transparente en un informe de disputa (issue 40, docs/security.md).
var _ = extend("es", map[string]Text{
	"report.proof":       {Other: "Prueba en el registro firmado"},
	"report.proof.text":  {One: "El único evento de esta mano es la entrada {first} del registro. El punto de control de abajo, de los primeros {size} eventos del registro, está firmado con la clave {key}, y la prueba de inclusión del evento, guardada en esta página, lleva a su raíz: esta mano es la que el registro tenía cuando se firmó el punto de control, byte a byte.", Other: "Los {n} eventos de esta mano están entre las entradas {first} y {last} del registro. El punto de control de abajo, de los primeros {size} eventos del registro, está firmado con la clave {key}, y la prueba de inclusión de cada evento, guardada en esta página, lleva a su raíz: esta mano es la que el registro tenía cuando se firmó el punto de control, byte a byte."},
	"report.proof.check": {Other: "Cualquiera que tenga la clave pública del registro (la clave de verificación cuyo nombre y huella son {key}) puede comprobar esta página sin red: fechado verify-report ARCHIVO --key CLAVE. Una carta, un importe o cualquier byte cambiado hace fallar la comprobación."},
})
