package lang

var _ = extend("pt-BR", map[string]Text{
	"serve.writes-open": {Other: "a escrita está ABERTA: sem --auth, qualquer um que alcance {url} pode acrescentar eventos ao registro (POST /api/events); passe --auth ARQUIVO para exigir credenciais"},
	"serve.writes-auth": {Other: "a escrita exige credenciais: POST /api/events aceita os aparelhos de mesa e os usuários app de {file}"},
	"stream.missing":    {Other: "o stream {stream} não existe, e este comando não cria nada: prepare o registro com 'fechado init' (ou gravando nele)"},
	"stream.differs":    {Other: "o stream {stream} não está configurado como docs/stream.md exige: {what}"},
	"init.created":      {Other: "stream {stream} criado com {replicas} réplicas, configurado como docs/stream.md exige"},
	"init.exists":       {Other: "o stream {stream} existe e está configurado como docs/stream.md exige: nada a fazer"},
	"passwd.prompt":     {Other: "Senha: "},
	"passwd.empty":      {Other: "a senha está vazia"},
	"passwd.cost":       {Other: "--cost deve estar entre {min} e {max}"},
})
