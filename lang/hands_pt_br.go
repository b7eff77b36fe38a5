package lang

// The words of import, export and sim on standard error (issue 45: hands in every tool).
var _ = extend("pt-BR", map[string]Text{
	"import.summary":      {Other: "Mãos importadas: {imported} de {found}. Eventos: {events}. Arquivos: {files}."},
	"import.skipped":      {Other: "Mãos não importadas: {n} (veja acima)."},
	"import.duplicates":   {Other: "Mãos encontradas duas vezes e tomadas uma vez só: {n}."},
	"import.stray":        {Other: "Trechos de texto que não são uma mão, deixados de fora: {n}."},
	"import.unreadable":   {Other: "Arquivos que não puderam ser lidos: {n}."},
	"import.dropped":      {Other: "{where}: mão {hand}: o passe do lugar {seat} veio depois que a rodada de apostas já estava encerrada; não muda nada e foi deixado de fora."},
	"import.room":         {Other: "{file}: lido como {format}."},
	"sim.ended.one-left":  {Other: "A mesa {table} parou depois de {played} de {wanted} mãos: {player} tem todas as fichas (os outros perderam as suas e, sem mais recompras, saíram)."},
	"sim.ended.too-few":   {Other: "A mesa {table} parou depois de {played} de {wanted} mãos: restam {n} jogadores com fichas, e {preset} precisa de pelo menos {min}."},
	"export.refused":      {Other: "A mão {hand} ({preset}) ficou de fora: {format} não sabe dizer a regra {rule} = {value}."},
	"export.summary":      {Other: "Mãos escritas como {format}: {written} de {found}."},
	"export.some-refused": {Other: "algumas mãos ficaram de fora (veja acima)"},
})
