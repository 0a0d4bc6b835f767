module github.com/cobramcp/cobramcp/test/corpus/cobracli

go 1.15

require github.com/spf13/cobra-cli v1.3.0
