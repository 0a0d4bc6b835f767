// Package k3d adds k3d to the corpus of real CLIs (see package corpus,
// one directory up). It is a module of its own: k3d v5.9.0 pins a docker
// client that the other CLIs' pins move to the moby module it was not
// written for, so it does not build in the corpus module. Its binary is
// built from this module, whose pins are k3d's own merged with
// cobramcp's, and so is the in-process tree it is compared with.
package k3d

import _ "github.com/k3d-io/k3d/v5/cmd" // the pinned dependency
