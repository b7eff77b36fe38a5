package console

// The offline mode's files: the rules engine compiled to WebAssembly (internal/advise) and Go's
// loader for it, served at /console/offline/. They are built, not kept in the repository:
//
//	go generate ./console
//
// before go build embeds them. Without them the console works online only.
//
//go:generate sh -c "mkdir -p assets/offline && GOOS=js GOARCH=wasm go build -trimpath -o assets/offline/advise.wasm ./internal/advise && cp \"$(go env GOROOT)/lib/wasm/wasm_exec.js\" assets/offline/"
