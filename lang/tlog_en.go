package lang

// The transparency log's words in a dispute report (issue 40, docs/security.md).
var _ = extend("en", map[string]Text{
	"report.proof":       {Other: "Proof in the signed log"},
	"report.proof.text":  {One: "The only event of this hand is the log's entry {first}. The checkpoint below, of the log's first {size} events, is signed by the key {key}, and the inclusion proof of the event, carried inside this page, leads to its root: this hand is the one the log held when the checkpoint was signed, byte for byte.", Other: "The {n} events of this hand are among the log's entries {first} to {last}. The checkpoint below, of the log's first {size} events, is signed by the key {key}, and the inclusion proof of each event, carried inside this page, leads to its root: this hand is the one the log held when the checkpoint was signed, byte for byte."},
	"report.proof.check": {Other: "Anyone holding the log's public key (the verifier key whose name and fingerprint are {key}) can check this page without a network: fechado verify-report FILE --key KEY. A card, an amount or any byte changed makes the check fail."},
})
