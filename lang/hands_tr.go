package lang

// The words of import, export and sim on standard error (issue 45: hands in every tool).
var _ = extend("tr", map[string]Text{
	"import.summary":      {Other: "Aktarılan el: {imported} / {found}. Olay: {events}. Dosya: {files}."},
	"import.skipped":      {Other: "Aktarılamayan el: {n} (yukarıya bakın)."},
	"import.duplicates":   {Other: "İki kez bulunup bir kez alınan el: {n}."},
	"import.stray":        {Other: "El olmayan, dışarıda bırakılan metin parçası: {n}."},
	"import.unreadable":   {Other: "Okunamayan dosya: {n}."},
	"import.dropped":      {Other: "{where}: el {hand}: {seat} numaralı koltuğun pası bahis turu tamamlandıktan sonra geldi; hiçbir şeyi değiştirmediği için dışarıda bırakıldı."},
	"import.room":         {Other: "{file}: {format} olarak okundu."},
	"sim.ended.one-left":  {Other: "{table} masası {wanted} elden {played} el sonra durdu: bütün fişler {player} adlı oyuncuda (ötekiler fişlerini kaybetti ve yeniden alım hakları bitince masadan kalktı)."},
	"sim.ended.too-few":   {Other: "{table} masası {wanted} elden {played} el sonra durdu: fişi olan {n} oyuncu kaldı, {preset} ise en az {min} oyuncuyla oynanır."},
	"export.refused":      {Other: "{hand} eli ({preset}) dışarıda bırakıldı: {format} {rule} = {value} kuralını ifade edemiyor."},
	"export.summary":      {Other: "{format} olarak yazılan el: {written} / {found}."},
	"export.some-refused": {Other: "bazı eller dışarıda bırakıldı (yukarıya bakın)"},
})
