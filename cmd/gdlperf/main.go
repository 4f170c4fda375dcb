// Command gdlperf benchmarks GDL rule engines: it runs each engine on each
// game as a separate process doing random rollouts, checks that the engines
// agree, and reports. See README.md.
package main

import (
	"os"

	"github.com/gdlperf/gdlperf/cmd/gdlperf/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
