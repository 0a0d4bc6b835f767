module github.com/cobramcp/cobramcp/test/bench

go 1.25.0

require (
	github.com/cobramcp/cobramcp v0.0.0
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/spf13/cobra v1.9.1
)

require (
	github.com/coreos/go-oidc/v3 v3.10.0 // indirect
	github.com/go-jose/go-jose/v4 v4.1.3 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/pelletier/go-toml/v2 v2.0.6 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	github.com/tailscale/hujson v0.0.0-20221223112325-20486734a56a // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)

replace github.com/cobramcp/cobramcp => ../..
