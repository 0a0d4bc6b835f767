package bridge

import "testing"

func TestGoRunBuild(t *testing.T) {
	tests := []struct {
		exe  string
		want bool
	}{
		{"/tmp/go-build1234567/b001/exe/acme", true},
		{"/home/u/.cache/tmp/go-build99/b123/exe/mycli", true},
		{"/tmp/go-build1234567/b001/cmd.test", false}, // go test's binary
		{"/usr/local/bin/acme", false},
		{"/home/u/go-builder/b1/exe/acme", false},
		{"/tmp/go-build1/b001/exe", false},
	}
	for _, tt := range tests {
		if got := goRunBuild(tt.exe); got != tt.want {
			t.Errorf("goRunBuild(%q) = %v, want %v", tt.exe, got, tt.want)
		}
	}
	if goRunWarning("/tmp/go-build1/b001/exe/acme") == "" || goRunWarning("/usr/bin/acme") != "" {
		t.Error("goRunWarning does not match goRunBuild")
	}
}
