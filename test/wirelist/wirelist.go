// Package wirelist measures a server's tools/list response as the go-sdk
// writes it on the wire: the JSON-RPC envelope and the result's metadata
// included, which grow with the protocol version.
//
//	n, err := wirelist.Bytes(served.NewServer(toolset.ServerOptions{}))
//	if n > 4096 { ... }
package wirelist

import (
	"bytes"
	"context"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Versions are the protocol versions Bytes asks in: the go-sdk client's
// default ("") and the last one before it.
var Versions = []string{"", "2025-11-25"}

// Bytes returns the size of srv's tools/list response, the largest over
// Versions, from a go-sdk client connected in memory.
func Bytes(srv *mcp.Server) (int, error) {
	most := 0
	for _, version := range Versions {
		n, err := bytesAt(srv, version)
		if err != nil {
			return 0, err
		}
		most = max(most, n)
	}
	return most, nil
}

func bytesAt(srv *mcp.Server, version string) (int, error) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return 0, err
	}
	defer ss.Close()
	var log bytes.Buffer
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "wirelist", Version: "1"}, nil).Connect(ctx, &mcp.LoggingTransport{Transport: ct, Writer: &log}, opts)
	if err != nil {
		return 0, err
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		cs.Close()
		return 0, err
	}
	cs.Close()
	// The logging transport writes each message read on one line after a
	// prefix.
	for _, l := range strings.Split(log.String(), "\n") {
		if i := strings.Index(l, "{"); i >= 0 && strings.Contains(l, `"tools":[`) && strings.Contains(l, `"result"`) {
			return len(l[i:]), nil
		}
	}
	return 0, errors.New("wirelist: no tools/list response in the session's log")
}

// Instructions returns the server instructions of srv as a client reads
// them from its initialize result, from a go-sdk client connected in
// memory.
func Instructions(srv *mcp.Server) (string, error) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return "", err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "wirelist", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return "", err
	}
	defer cs.Close()
	return cs.InitializeResult().Instructions, nil
}
