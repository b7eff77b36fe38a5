package lang

// Şeffaf kaydın bir anlaşmazlık raporundaki sözcükleri (issue 40, docs/security.md).
var _ = extend("tr", map[string]Text{
	"report.proof":       {Other: "İmzalı kayıttaki kanıt"},
	"report.proof.text":  {One: "Bu elin tek olayı kaydın {first} numaralı girdisidir. Aşağıdaki kontrol noktası kaydın ilk {size} olayını kapsar ve {key} anahtarıyla imzalanmıştır; bu sayfada taşınan olayın dahil olma kanıtı ağacın köküne ulaşır: bu el, kontrol noktası imzalandığında kayıtta bulunan elin bayt bayt aynısıdır.", Other: "Bu elin {n} olayı kaydın {first} ile {last} numaralı girdileri arasındadır. Aşağıdaki kontrol noktası kaydın ilk {size} olayını kapsar ve {key} anahtarıyla imzalanmıştır; bu sayfada taşınan her olayın dahil olma kanıtı ağacın köküne ulaşır: bu el, kontrol noktası imzalandığında kayıtta bulunan elin bayt bayt aynısıdır."},
	"report.proof.check": {Other: "Kaydın açık anahtarına (adı ve parmak izi {key} olan doğrulama anahtarı) sahip olan herkes bu sayfayı ağ olmadan denetleyebilir: fechado verify-report DOSYA --key ANAHTAR. Değiştirilmiş bir kart, bir miktar ya da herhangi bir bayt denetimi başarısız kılar."},
})
