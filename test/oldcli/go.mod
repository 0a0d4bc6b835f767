module github.com/cobramcp/cobramcp/test/oldcli

go 1.26

require (
	github.com/spf13/cobra v1.0.0
	github.com/spf13/pflag v1.0.5
)

require github.com/inconshreveable/mousetrap v1.0.0 // indirect
