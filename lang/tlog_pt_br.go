package lang

// As palavras do registro transparente num relatório de disputa (issue 40, docs/security.md).
var _ = extend("pt-BR", map[string]Text{
	"report.proof":       {Other: "Prova no registro assinado"},
	"report.proof.text":  {One: "O único evento desta mão é a entrada {first} do registro. O checkpoint abaixo, dos primeiros {size} eventos do registro, é assinado pela chave {key}, e a prova de inclusão do evento, guardada nesta página, leva à sua raiz: esta mão é a que o registro guardava quando o checkpoint foi assinado, byte por byte.", Other: "Os {n} eventos desta mão estão entre as entradas {first} e {last} do registro. O checkpoint abaixo, dos primeiros {size} eventos do registro, é assinado pela chave {key}, e a prova de inclusão de cada evento, guardada nesta página, leva à sua raiz: esta mão é a que o registro guardava quando o checkpoint foi assinado, byte por byte."},
	"report.proof.check": {Other: "Quem tiver a chave pública do registro (a chave de verificação cujo nome e impressão digital são {key}) pode conferir esta página sem rede: fechado verify-report ARQUIVO --key CHAVE. Uma carta, um valor ou qualquer byte alterado faz a conferência falhar."},
})
