package toolset_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/cobramcp/cobramcp/toolset"
)

// TestSearchQueryBounds: a query over rank's bounds is refused by search
// with the bound named, and by describe and run as a name, without
// suggestions; a query within them is answered.
func TestSearchQueryBounds(t *testing.T) {
	v := searchView(t, realisticTree(), toolset.Policy{})
	call := func(tool string, args map[string]any) (bool, string) {
		b, _ := json.Marshal(args)
		res, err := v.Call(context.Background(), "kh_"+tool, b)
		if err != nil {
			t.Fatal(err)
		}
		return res.IsError, resultText(res)
	}
	for _, tt := range []struct {
		query, says string
	}{
		{strings.Repeat("a", 5<<20), "5242880 bytes, over the 1024"},
		{strings.Repeat("a", 512<<10), "524288 bytes, over the 1024"},
		{strings.Repeat("pod ", 65), "more than 64 words"},
	} {
		isErr, text := call("search_commands", map[string]any{"query": tt.query})
		if !isErr || !strings.Contains(text, tt.says) || len(text) > 400 {
			t.Errorf("a query of %d bytes: isError=%v %.300q; want a short refusal saying %q", len(tt.query), isErr, text, tt.says)
		}
		for _, tool := range []string{"describe_command", "run_command"} {
			if isErr, text := call(tool, map[string]any{"command": tt.query}); !isErr || !strings.Contains(text, "find one with kh_search_commands") {
				t.Errorf("%s of a name of %d bytes: isError=%v %.200q", tool, len(tt.query), isErr, text)
			}
		}
	}
	if isErr, text := call("search_commands", map[string]any{"query": strings.Repeat("pod ", 64)}); isErr {
		t.Errorf("a query of 64 words: %s", text)
	}
}

// TestSearchCancelled: a search whose request is cancelled is stopped and
// says so.
func TestSearchCancelled(t *testing.T) {
	v := searchView(t, realisticTree(), toolset.Policy{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := v.Call(ctx, "kh_search_commands", json.RawMessage(`{"query":"list pods"}`))
	if err != nil || !res.IsError || !strings.Contains(resultText(res), "context canceled") {
		t.Errorf("a cancelled search: %v %q", err, resultText(res))
	}
}

// TestSearchConcurrent: searches, lists and describes at once, huge and
// ordinary, through the shared limit: each is answered or refused as it
// would be alone.
func TestSearchConcurrent(t *testing.T) {
	v := searchView(t, realisticTree(), toolset.Policy{})
	want := search(t, v, "kh", "list pods")
	huge, _ := json.Marshal(map[string]any{"query": strings.Repeat("a", 1<<20)})
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() {
			res, _ := v.Call(context.Background(), "kh_list_commands", json.RawMessage(`{}`))
			if res == nil || res.IsError {
				t.Errorf("list: %q", resultText(res))
			}
			switch i % 3 {
			case 0:
				if res, _ := v.Call(context.Background(), "kh_search_commands", huge); res == nil || !res.IsError {
					t.Errorf("a 1 MB search was not refused")
				}
			case 1:
				res, _ := v.Call(context.Background(), "kh_search_commands", json.RawMessage(`{"query":"list pods"}`))
				var got found
				if res == nil || res.IsError || json.Unmarshal([]byte(resultText(res)), &got) != nil || len(got.Results) == 0 || got.Results[0] != want.Results[0] {
					t.Errorf("list pods: %q, alone %+v", resultText(res), want.Results)
				}
			default:
				if res, _ := v.Call(context.Background(), "kh_describe_command", json.RawMessage(`{"command":"kh_get"}`)); res == nil || res.IsError {
					t.Errorf("describe: %q", resultText(res))
				}
			}
		})
	}
	wg.Wait()
}
