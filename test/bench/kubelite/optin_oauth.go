//go:build oauth && !nobridge && !sdkfloor

package main

import (
	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/oauth"
)

func init() { mcpOptions = append(mcpOptions, bridge.WithOAuth(oauth.New)) }
