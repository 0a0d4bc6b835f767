package toolset_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/toolset"
)

// TestViewPoliciesAllApply: a tool is served only when every policy
// selects it, read-only when any policy asks, with the pins of all.
func TestViewPoliciesAllApply(t *testing.T) {
	ts, argvs := recordingTree(t)
	get := toolset.Policy{Tools: []string{"mycli_get_*"}}
	ro := toolset.Policy{ReadOnly: true}
	noPods := toolset.Policy{ExcludeTools: []string{"mycli_get_pods"}}
	v, err := ts.View(toolset.Listing{}, get, ro, noPods)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, tl := range ts.List() {
		if ok, _ := path.Match("mycli_get_*", tl.Name); ok && tl.ReadOnly() && tl.Name != "mycli_get_pods" {
			want = append(want, tl.Name)
		}
	}
	if got := listedNames(v); len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("tools of three policies = %v, want %v", got, want)
	}
	// The order of the policies does not matter.
	w, err := ts.View(toolset.Listing{}, noPods, ro, get)
	if err != nil || !slices.Equal(listedNames(w), want) {
		t.Errorf("the same policies in another order: %v %v", listedNames(w), err)
	}
	// Each policy must leave the tool: two that share none leave nothing.
	_, err = ts.View(toolset.Listing{}, toolset.Policy{Tools: []string{"mycli_get_pods"}}, toolset.Policy{ExcludeTools: []string{"mycli_get_pods"}})
	if !errors.Is(err, toolset.ErrNothingServed) {
		t.Errorf("policies sharing no tool: %v, want ErrNothingServed", err)
	}
	// A pattern of any policy that matches no tool is an error of that
	// policy's setting.
	var pe *toolset.PolicyError
	if _, err := ts.View(toolset.Listing{}, get, toolset.Policy{Tools: []string{"nope"}}); !errors.As(err, &pe) || pe.Setting != toolset.SettingTools {
		t.Errorf("a second policy's bad pattern: %v", err)
	}

	// The pins of every policy apply; the same pin twice is one pin.
	p, err := ts.View(toolset.Listing{},
		toolset.Policy{Pins: []toolset.Pin{{Flag: "namespace", Value: "staging", From: "--set"}}},
		toolset.Policy{Pins: []toolset.Pin{{Flag: "limit", Value: "5", From: "the caller's rule"}, {Flag: "namespace", Value: "staging", From: "the caller's rule"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := p.Call(context.Background(), "mycli_get_pods", nil); err != nil || res.IsError {
		t.Fatalf("call: %v %s", err, resultText(res))
	}
	got := (*argvs)[len(*argvs)-1]
	if !slices.Contains(got, "--namespace=staging") || !slices.Contains(got, "--limit=5") || strings.Count(strings.Join(got, " "), "--namespace") != 1 {
		t.Errorf("argv %q, want each pin once", got)
	}
	for _, tool := range p.Tools() {
		b, _ := json.Marshal(tool.InputSchema)
		if strings.Contains(string(b), `"namespace":`) || strings.Contains(string(b), `"limit":`) {
			t.Errorf("%s still lists a pinned flag", tool.Name)
		}
	}
}

// TestViewPinnedTwiceDifferently: one flag pinned to two values by two
// policies is a PolicyError naming where each came from, not the values.
func TestViewPinnedTwiceDifferently(t *testing.T) {
	ts := myTree()
	_, err := ts.View(toolset.Listing{},
		toolset.Policy{Pins: []toolset.Pin{{Flag: "namespace", Value: "s3cret-a", From: "--set"}}},
		toolset.Policy{Pins: []toolset.Pin{{Flag: "namespace", Value: "s3cret-b", From: "the rule of alice"}}})
	var pe *toolset.PolicyError
	if !errors.As(err, &pe) || pe.Setting != toolset.SettingPins {
		t.Fatalf("View = %v, want a PolicyError of setting pins", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "--namespace") || !strings.Contains(msg, "--set") || !strings.Contains(msg, "the rule of alice") || strings.Contains(msg, "s3cret") {
		t.Errorf("error %q: want the flag and both origins, no value", msg)
	}
}

// TestPinCheckedByItsFlag: a pin is checked by its flag's own parser when
// the view is made, and written on the command line as given.
func TestPinCheckedByItsFlag(t *testing.T) {
	var argv []string
	root := &cobra.Command{Use: "app"}
	run := &cobra.Command{Use: "run", RunE: func(*cobra.Command, []string) error { return nil }}
	run.Flags().Duration("wait", time.Second, "how long")
	run.Flags().StringArray("env", nil, "variables")
	run.Flags().Var(&filterOpt{values: &[]string{}}, "filter", "filters")
	lvl := levelValue("info")
	run.Flags().Var(&lvl, "level", "debug, info or warn")
	root.AddCommand(run)
	ts := mustTools(t, root, captureArgv(&argv))

	var pe *toolset.PolicyError
	for _, bad := range []toolset.Pin{
		{Flag: "wait", Value: "5 parsecs", From: "--set"},
		{Flag: "level", Value: "loud", From: "--set"},
	} {
		_, err := ts.View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{bad}})
		if !errors.As(err, &pe) || pe.Setting != toolset.SettingPins || !strings.Contains(err.Error(), "flag --"+bad.Flag+"="+bad.Value+" (pinned --set)") {
			t.Errorf("pin %+v: %v, want a refusal of its flag's parser", bad, err)
		}
	}
	v, err := ts.View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{
		{Flag: "wait", Value: "1m30s", From: "--set"},
		{Flag: "env", Value: "A=1,B=2", From: "--set"},
		{Flag: "filter", Value: "status=up", From: "--set"},
		{Flag: "level", Value: "warn", From: "--set"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := v.Call(context.Background(), "app_run", nil)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %s", err, resultText(res))
	}
	// As given, one element each: --env=A=1,B=2 is one stringArray
	// element for the flag's parser, as on a command line.
	want := []string{"run", "--env=A=1,B=2", "--filter=status=up", "--level=warn", "--wait=1m30s"}
	if !slices.Equal(argv, want) {
		t.Errorf("argv %q, want %q", argv, want)
	}
	// The pins went to the flags of a copy: the tree's own are unchanged.
	if f := run.Flags().Lookup("wait"); f.Changed || f.Value.String() != "1s" {
		t.Errorf("the tree's --wait was changed: %s", f.Value)
	}
	if f := run.Flags().Lookup("filter"); f.Value.String() != "" {
		t.Errorf("the tree's --filter was changed: %q", f.Value)
	}
	if lvl != "info" {
		t.Errorf("the tree's --level was changed: %q", lvl)
	}
}

// TestRedact: the view replaces pinned values in an argv, and the debug
// log of a call's argv never shows them.
func TestRedact(t *testing.T) {
	var log bytes.Buffer
	root := &cobra.Command{Use: "app"}
	root.PersistentFlags().String("token", "", "the API token")
	run := &cobra.Command{Use: "run", RunE: func(*cobra.Command, []string) error { return nil }}
	root.AddCommand(run)
	ts, err := toolset.New(root, &toolset.Config{
		Executable: "/bin/true",
		Logger:     slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/bin/true"); err != nil {
		t.Skip("no /bin/true to run")
	}
	v, err := ts.View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{{Flag: "token", Value: "s3cret", From: "--set"}}})
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{"run", "--token=s3cret", "--", "--token=s3cret-not-pinned", "s3cret"}
	got := v.Redact(argv)
	if want := []string{"run", "--token=***", "--", "--token=s3cret-not-pinned", "s3cret"}; !slices.Equal(got, want) {
		t.Errorf("Redact = %q, want %q", got, want)
	}
	if argv[1] != "--token=s3cret" {
		t.Error("Redact changed its argument")
	}
	if un, _ := ts.View(toolset.Listing{}); !slices.Equal(un.Redact(argv), argv) {
		t.Errorf("a view without pins redacted %q", un.Redact(argv))
	}

	res, err := v.Call(context.Background(), "app_run", json.RawMessage(`{"args":["x"]}`))
	if err != nil || res.IsError {
		t.Fatalf("call: %v %s", err, resultText(res))
	}
	if !strings.Contains(log.String(), "--token=***") || strings.Contains(log.String(), "s3cret") {
		t.Errorf("debug log:\n%s\nwant the argv with the pinned value redacted", log.String())
	}
}

// levelValue is a custom flag value whose Set refuses what it does not
// know.
type levelValue string

func (l *levelValue) String() string { return string(*l) }
func (l *levelValue) Type() string   { return "level" }
func (l *levelValue) Set(s string) error {
	switch s {
	case "debug", "info", "warn":
		*l = levelValue(s)
		return nil
	}
	return errors.New("want debug, info or warn")
}
