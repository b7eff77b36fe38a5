package lang

var _ = extend("tr", map[string]Text{
	"serve.writes-open": {Other: "yazma AÇIK: --auth olmadan {url} adresine ulaşabilen herkes kayda olay ekleyebilir (POST /api/events); kimlik bilgisi istemek için --auth DOSYA verin"},
	"serve.writes-auth": {Other: "yazma kimlik bilgisi ister: POST /api/events, {file} dosyasındaki masa cihazlarını ve app kullanıcılarını kabul eder"},
	"stream.missing":    {Other: "{stream} akışı yok ve bu komut hiçbir şey oluşturmaz: kaydı 'fechado init' ile (ya da içine kayıt yaparak) kurun"},
	"stream.differs":    {Other: "{stream} akışı docs/stream.md belgesinin istediği gibi yapılandırılmamış: {what}"},
	"init.created":      {Other: "{stream} akışı {replicas} kopyayla, docs/stream.md belgesinin istediği gibi oluşturuldu"},
	"init.exists":       {Other: "{stream} akışı var ve docs/stream.md belgesinin istediği gibi yapılandırılmış: yapılacak bir şey yok"},
	"passwd.prompt":     {Other: "Parola: "},
	"passwd.empty":      {Other: "parola boş"},
	"passwd.cost":       {Other: "--cost {min} ile {max} arasında olmalı"},
})
