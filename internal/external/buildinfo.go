package external

import (
	"debug/buildinfo"
	"strconv"
	"strings"
)

// BuildInfo is what the Go build info of a binary (debug/buildinfo) says
// of it: the main module and its version, and the versions of cobra and
// pflag it was built with. Rules that differ across cobra versions are
// chosen by it, and a cache entry is fresh only for the same build info.
type BuildInfo struct {
	GoVersion   string `json:"goVersion,omitempty"`
	Main        string `json:"main,omitempty"`
	MainVersion string `json:"mainVersion,omitempty"`
	Cobra       string `json:"cobra,omitempty"`
	Pflag       string `json:"pflag,omitempty"`
}

// readBuildInfo reads the Go build info of the binary at path; nil when
// it has none (not a Go binary, or one built without it).
func readBuildInfo(path string) *BuildInfo {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return nil
	}
	b := &BuildInfo{GoVersion: bi.GoVersion, Main: bi.Main.Path, MainVersion: bi.Main.Version}
	for _, d := range bi.Deps {
		v := d.Version
		if d.Replace != nil {
			v = d.Replace.Version
		}
		switch d.Path {
		case "github.com/spf13/cobra":
			b.Cobra = v
		case "github.com/spf13/pflag":
			b.Pflag = v
		}
	}
	return b
}

// cobraAtLeast reports whether the binary was built with cobra
// major.minor or later, and whether its cobra version is known.
func (b *BuildInfo) cobraAtLeast(major, minor int) (atLeast, known bool) {
	if b == nil {
		return false, false
	}
	v := strings.TrimPrefix(b.Cobra, "v")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false, false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false, false
	}
	return ma > major || ma == major && mi >= minor, true
}

// equal reports whether two build infos describe the same build.
func (b *BuildInfo) equal(o *BuildInfo) bool {
	if b == nil || o == nil {
		return b == o
	}
	return *b == *o
}
