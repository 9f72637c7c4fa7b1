// Command porcupine-check checks geoblocks' create-if-absent register for linearizability with
// Porcupine (github.com/anishathalye/porcupine). It reads JSON lines written by
// `node.jar simulate consistency --out DIR` (DIR/histories.jsonl): per name, the creates (won,
// exists, unknown) and the reads at the name's owner region, with simulated call and return times.
//
// The model is a register that starts absent and can be created once: a create that won moves it
// from absent to its version; a create refused as existing needs it present; a read returns the
// present version (or absent). A create whose outcome the client was told is unknown may have had
// no effect, or may have created the register at any time after its call, with a version that only
// later reads reveal (state "?").
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/anishathalye/porcupine"
)

type op struct {
	Client  int    `json:"client"`
	Kind    string `json:"kind"`
	Call    int64  `json:"call"`
	Ret     int64  `json:"ret"`
	Outcome string `json:"outcome"`
	Version string `json:"version"`
}

type history struct {
	Seed  int64  `json:"seed"`
	Name  string `json:"name"`
	Owner string `json:"owner"`
	Ops   []op   `json:"ops"`
}

type output struct {
	Outcome string // won, exists, unknown (creates); "" (reads)
	Version string // the version a create made or a read returned ("" = absent)
}

const unknownState = "?"

var model = porcupine.NondeterministicModel{
	Init: func() []interface{} { return []interface{}{""} },
	Step: func(state, input, out interface{}) []interface{} {
		s := state.(string)
		o := out.(output)
		switch input.(string) {
		case "create":
			switch o.Outcome {
			case "won":
				if s == "" {
					return []interface{}{o.Version}
				}
			case "exists":
				if s != "" {
					return []interface{}{s}
				}
			case "unknown":
				if s == "" {
					return []interface{}{"", unknownState}
				}
				return []interface{}{s}
			}
		case "read":
			if o.Version == s {
				return []interface{}{s}
			}
			if s == unknownState && o.Version != "" {
				return []interface{}{o.Version}
			}
		}
		return nil
	},
	Equal: func(a, b interface{}) bool { return a.(string) == b.(string) },
	DescribeOperation: func(input, out interface{}) string {
		o := out.(output)
		if input.(string) == "read" {
			return fmt.Sprintf("read -> %q", o.Version)
		}
		return fmt.Sprintf("create -> %s %s", o.Outcome, o.Version)
	},
	DescribeState: func(state interface{}) string { return fmt.Sprintf("%q", state.(string)) },
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: porcupine-check HISTORIES.jsonl")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(2)
	}
	defer f.Close()
	checked, ops, bad, unknownOps := 0, 0, 0, 0
	in := bufio.NewScanner(f)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	m := model.ToModel()
	for in.Scan() {
		var h history
		if err := json.Unmarshal(in.Bytes(), &h); err != nil {
			fmt.Fprintln(os.Stderr, "error: bad history line:", err)
			os.Exit(2)
		}
		var hist []porcupine.Operation
		for _, o := range h.Ops {
			ret := o.Ret
			if o.Outcome == "unknown" {
				ret = math.MaxInt64 // it may take effect at any time after its call
				unknownOps++
			}
			hist = append(hist, porcupine.Operation{ClientId: o.Client, Input: o.Kind, Call: o.Call,
				Output: output{o.Outcome, o.Version}, Return: ret})
		}
		res, info := porcupine.CheckOperationsVerbose(m, hist, 10*time.Second)
		checked++
		ops += len(hist)
		if res != porcupine.Ok {
			bad++
			path := fmt.Sprintf("porcupine-seed%d-%s.html", h.Seed, sanitize(h.Name))
			_ = porcupine.VisualizePath(m, info, path)
			fmt.Printf("NOT LINEARIZABLE (%v): seed %d name %s (owner %s); see %s\n", res, h.Seed, h.Name, h.Owner, path)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(2)
	}
	fmt.Printf("porcupine: %d histories, %d operations (%d with unknown outcome), %d not linearizable\n",
		checked, ops, unknownOps, bad)
	if bad > 0 || checked == 0 {
		os.Exit(1)
	}
}

func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	return string(b)
}
