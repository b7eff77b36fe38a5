package lang

// The words of import, export and sim on standard error (issue 45: hands in every tool).
var _ = extend("es", map[string]Text{
	"import.summary":      {Other: "Manos importadas: {imported} de {found}. Eventos: {events}. Archivos: {files}."},
	"import.skipped":      {Other: "Manos no importadas: {n} (ver arriba)."},
	"import.duplicates":   {Other: "Manos halladas dos veces y tomadas una sola: {n}."},
	"import.stray":        {Other: "Tramos de texto que no son una mano, dejados fuera: {n}."},
	"import.unreadable":   {Other: "Archivos que no se pudieron leer: {n}."},
	"import.dropped":      {Other: "{where}: mano {hand}: el pase del asiento {seat} llegó con la ronda de apuestas ya cerrada; no cambia nada y se dejó fuera."},
	"import.room":         {Other: "{file}: leído como {format}."},
	"sim.ended.one-left":  {Other: "La mesa {table} se detuvo tras {played} de {wanted} manos: {player} tiene todas las fichas (los demás perdieron las suyas y, sin más recompras, se fueron)."},
	"sim.ended.too-few":   {Other: "La mesa {table} se detuvo tras {played} de {wanted} manos: quedan {n} jugadores con fichas, y {preset} necesita al menos {min}."},
	"export.refused":      {Other: "La mano {hand} ({preset}) quedó fuera: {format} no puede expresar la regla {rule} = {value}."},
	"export.summary":      {Other: "Manos escritas como {format}: {written} de {found}."},
	"export.some-refused": {Other: "algunas manos quedaron fuera (ver arriba)"},
})
