package toolset

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/audit"
	"github.com/cobramcp/cobramcp/internal/caller"
	"github.com/cobramcp/cobramcp/internal/fairshare"
)

// trace is what a call noted on its way, for its audit record and its
// Observer.
type trace struct {
	tool   string   // the tool run (in search mode, the one the run tool named)
	argv   []string // redacted
	waited time.Duration
	ran    bool // the process ran: exit and output are set
	exit   int
	output int // bytes of stdout and stderr

	served  string  // the tool whose command the call is for, once known
	outcome Outcome // how the call ended; "" until known
	cut     bool    // output was left out
}

// auditCall records one tools/call of the tool named name to log: served
// or refused (res's text says why).
func auditCall(log *audit.Log, req *mcp.CallToolRequest, name string, start time.Time, tr *trace, res *mcp.CallToolResult) {
	if log == nil {
		return
	}
	r := requestRecord(req, name, start)
	if tr.tool != "" {
		r.Tool = tr.tool
	}
	r.Argv, r.Waited = tr.argv, tr.waited
	if tr.ran {
		exit := tr.exit
		r.ExitCode, r.OutputBytes = &exit, tr.output
	} else {
		r.Refused = firstText(res)
		if r.Refused == "" {
			r.Refused = "refused"
		}
	}
	log.Record(r)
}

// auditRefusal records a tools/call refused before any tool was found.
func auditRefusal(log *audit.Log, req *mcp.CallToolRequest, name string, start time.Time, why string) {
	if log == nil {
		return
	}
	if len(name) > maxNameQuoted {
		// No tool has such a name: its start and its length are record
		// enough, and a line of megabytes per request is not.
		name = fmt.Sprintf("%s… (%d bytes)", strings.ToValidUTF8(name[:maxNameQuoted], ""), len(name))
	}
	r := requestRecord(req, name, start)
	r.Refused = why
	log.Record(r)
}

func requestRecord(req *mcp.CallToolRequest, name string, start time.Time) audit.Record {
	r := audit.Record{Time: start, Tool: name, Duration: time.Since(start)}
	if req == nil {
		return r
	}
	c := caller.FromRequest(req)
	r.Subject, r.Session, r.Client = c.Subject, c.Session, c.Client
	return r
}

// firstText is the text of res's first text content.
func firstText(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

// serverCall is what a server adds to each of its calls: its fair share
// of the slots, its audit log and its observer.
type serverCall struct {
	sched    *fairshare.Scheduler
	audit    *audit.Log
	observer Observer
}

func (s *Served) serverCall(opts ServerOptions) serverCall {
	return serverCall{sched: s.ts.scheds.get(opts.Limits), audit: opts.Audit, observer: opts.Observer}
}

// callAs runs a server's call of the tool named name as req's caller, and
// records it in the audit log.
func (s *Served) callAs(ctx context.Context, req *mcp.CallToolRequest, name string, o callOptions, sc serverCall) *mcp.CallToolResult {
	start := time.Now()
	o.sched, o.key, o.observer = sc.sched, callerKey(req), sc.observer
	if sc.audit != nil || sc.observer != nil {
		o.trace = &trace{}
	}
	res, _ := s.list.call(ctx, s, name, req.Params.Arguments, o)
	if sc.audit != nil {
		auditCall(sc.audit, req, name, start, o.trace, res)
	}
	// A call for a command, or refused on its way to one; not search
	// mode's search, describe and list tools, which run none.
	if sc.observer != nil && (o.trace.served != "" || o.trace.outcome != "") {
		sc.observer.Called(ctx, o.trace.report(res))
	}
	return res
}

// auditRefusals records the tools/call requests that the server refuses
// before any tool runs (an unknown tool, or one outside the caller's
// view), as the outermost middleware of srv.
func auditRefusals(srv *mcp.Server, log *audit.Log) {
	if log == nil {
		return
	}
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			r, ok := req.(*mcp.CallToolRequest)
			if !ok || method != "tools/call" || r.Params == nil {
				return next(ctx, method, req)
			}
			start := time.Now()
			res, err := next(ctx, method, req)
			if err != nil {
				auditRefusal(log, r, r.Params.Name, start, err.Error())
			}
			return res, err
		}
	})
}
