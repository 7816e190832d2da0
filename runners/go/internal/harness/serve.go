package harness

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"serbench/internal/model"
)

// DatasetRef is the protocol's dataset object.
type DatasetRef struct {
	Name      string                  `json:"name"`
	Kind      string                  `json:"kind"`
	Data      string                  `json:"data"`
	CheckData string                  `json:"check_data"`
	Types     string                  `json:"types"`
	Schemas   map[string]model.Schema `json:"schemas"`
}

type command struct {
	Cmd        string      `json:"cmd"`
	Cell       *string     `json:"cell"`
	Serializer string      `json:"serializer"`
	Dataset    *DatasetRef `json:"dataset"`
	Operations []string    `json:"operations"`
	DumpPath   *string     `json:"dump_path"`
	DecodeFrom *string     `json:"decode_from"`
	Verify     *bool       `json:"verify"`
	Operation  string      `json:"operation"`
	Iterations int         `json:"iterations"`
	Samples    int         `json:"samples"`
	Untimed    int         `json:"untimed"`
}

// Server holds the prepared cells and loaded datasets of one serve session.
type Server struct {
	Serializers []*Serializer
	cells       map[string]*Cell
	loaded      map[string]*model.Dataset
	out         *bufio.Writer
}

// LoadDataset reads the canonical file named by ref (cached by path).
func (s *Server) LoadDataset(ref *DatasetRef, path string) (*model.Dataset, error) {
	key := ref.Kind + "\x00" + ref.Name + "\x00" + path
	if d, ok := s.loaded[key]; ok {
		return d, nil
	}
	var d *model.Dataset
	var err error
	if ref.Kind == "user" {
		d, err = model.LoadUser(ref.Name, path, ref.Types, ref.Schemas)
	} else {
		d, err = model.Load(ref.Name, path)
	}
	if err != nil {
		return nil, err
	}
	if s.loaded == nil {
		s.loaded = map[string]*model.Dataset{}
	}
	s.loaded[key] = d
	return d, nil
}

func (s *Server) find(name string) *Serializer {
	for _, ser := range s.Serializers {
		if ser.Name == name {
			return ser
		}
	}
	return nil
}

func (s *Server) reply(v any) {
	b, _ := json.Marshal(v)
	s.out.Write(b)
	s.out.WriteByte('\n')
	s.out.Flush()
}

func (s *Server) fail(code, msg string, cell *string) {
	r := map[string]any{"event": "error", "code": code, "message": msg}
	if cell != nil {
		r["cell"] = *cell
	}
	s.reply(r)
}

// Serve answers commands from in until quit or end of input.
func (s *Server) Serve(in io.Reader, out io.Writer) {
	s.cells = map[string]*Cell{}
	s.out = bufio.NewWriter(out)
	r := bufio.NewReaderSize(in, 1<<16)
	for {
		line, err := r.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			if !s.handle(line) {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (s *Server) handle(line []byte) bool {
	var c command
	if err := json.Unmarshal(line, &c); err != nil {
		s.fail("bad_request", "not a JSON command: "+err.Error(), nil)
		return true
	}
	needCell := func() bool {
		if c.Cell == nil {
			s.fail("bad_request", c.Cmd+": missing field cell", nil)
			return false
		}
		return true
	}
	switch c.Cmd {
	case "quit":
		s.reply(map[string]any{"event": "bye"})
		return false
	case "release":
		if needCell() {
			delete(s.cells, *c.Cell)
			s.reply(map[string]any{"event": "released", "cell": *c.Cell})
		}
	case "prepare":
		if !needCell() {
			return true
		}
		if c.Dataset == nil || c.Dataset.Name == "" || c.Dataset.Data == "" || len(c.Operations) == 0 || c.Serializer == "" {
			s.fail("bad_request", "prepare needs serializer, dataset (name, kind, data) and operations", c.Cell)
			return true
		}
		for _, op := range c.Operations {
			if _, err := (&Cell{}).Op(op); err != nil {
				s.fail("bad_request", err.Error(), c.Cell)
				return true
			}
		}
		s.prepare(&c)
	case "sample", "peak_alloc":
		if !needCell() {
			return true
		}
		cell := s.cells[*c.Cell]
		if cell == nil {
			s.fail("unknown_cell", fmt.Sprintf("cell %q is not prepared", *c.Cell), c.Cell)
			return true
		}
		if c.Cmd == "sample" && (c.Iterations < 1 || c.Samples < 1 || c.Untimed < 0) {
			s.fail("bad_request", "sample needs iterations >= 1, samples >= 1 and untimed >= 0", c.Cell)
			return true
		}
		op, err := cell.Op(c.Operation)
		if err != nil {
			s.fail("bad_request", err.Error(), c.Cell)
			return true
		}
		if !cell.Prepared(c.Operation) {
			s.fail("bad_request", fmt.Sprintf("cell %q was not prepared for %s", *c.Cell, c.Operation), c.Cell)
			return true
		}
		if cell.decodeOnly && c.Operation != "decode" {
			s.fail("unsupported", "a decode_from cell times decode only", c.Cell)
			return true
		}
		if c.Cmd == "peak_alloc" {
			n, err := PeakAlloc(op)
			if err != nil {
				s.fail("exception", err.Error(), c.Cell)
				return true
			}
			s.reply(map[string]any{"event": "peak_alloc", "cell": *c.Cell, "operation": c.Operation, "bytes": max(n, 0)})
			return true
		}
		res, err := Run(op, c.Iterations, c.Samples, c.Untimed)
		if err != nil {
			s.fail("exception", err.Error(), c.Cell)
			return true
		}
		s.reply(map[string]any{
			"event": "samples", "cell": *c.Cell, "operation": c.Operation, "iterations": c.Iterations,
			"wall_ns": res.Wall, "cpu_ns": res.CPU, "alloc_bytes": res.AllocBytes,
			"alloc_count": res.AllocCount, "gc_count": res.GCCount, "gc_ns": res.GCPause,
			"compile_ns": 0,
		})
	case "untrusted_decode", "untrusted_encode":
		s.untrusted(line)
	default:
		s.fail("bad_request", fmt.Sprintf("unknown cmd %q", c.Cmd), c.Cell)
	}
	return true
}

func (s *Server) prepare(c *command) {
	cellName := *c.Cell
	delete(s.cells, cellName)
	prepared := func(p Prepared, messages any) {
		var check any
		if p.Detail != "" { // null when no check was made
			check = map[string]any{"ok": p.CheckOK, "detail": p.Detail}
		}
		var sizes any
		if p.Sizes != nil {
			sizes = p.Sizes
		}
		unsupported := p.Unsupported
		if unsupported == nil {
			unsupported = []string{}
		}
		var errBody any
		if p.Err != nil {
			errBody = p.Err
		}
		s.reply(map[string]any{
			"event": "prepared", "cell": cellName, "status": p.Status, "check": check,
			"messages": messages, "sizes": sizes, "unsupported": unsupported, "error": errBody,
		})
	}
	ser := s.find(c.Serializer)
	if ser == nil {
		var names []string
		for _, x := range s.Serializers {
			names = append(names, x.Name)
		}
		prepared(Prepared{Status: "error", Err: &ErrorBody{"unknown_serializer",
			fmt.Sprintf("no serializer %q; valid: %s", c.Serializer, strings.Join(names, ", "))}}, nil)
		return
	}
	ref := c.Dataset
	if ref.Kind != "user" {
		if model.TypedFor(ref.Name, false) == nil {
			names := model.Builtin()
			prepared(Prepared{Status: "error", Err: &ErrorBody{"unknown_dataset",
				fmt.Sprintf("no built-in dataset %q; valid: %s", ref.Name, strings.Join(names, ", "))}}, nil)
			return
		}
	}
	data, err := s.LoadDataset(ref, ref.Data)
	if err != nil {
		prepared(Prepared{Status: "error", Err: &ErrorBody{"bad_data", err.Error()}}, nil)
		return
	}
	dump, from := "", ""
	if c.DumpPath != nil {
		dump = *c.DumpPath
	}
	if c.DecodeFrom != nil {
		from = *c.DecodeFrom
	}
	check := data
	switch {
	case c.Verify != nil && !*c.Verify && from == "":
		// An earlier process of the run checked this cell and holds its sizes: checking
		// again would only delay the measuring (decode_from's check is its point).
		check = nil
	case ref.CheckData != "" && ref.CheckData != ref.Data:
		if check, err = s.LoadDataset(ref, ref.CheckData); err != nil {
			prepared(Prepared{Status: "error", Err: &ErrorBody{"bad_data", err.Error()}}, nil)
			return
		}
	}
	cell, p := Prepare(ser, data, check, c.Operations, dump, from)
	if cell != nil {
		cell.decodeOnly = from != ""
		s.cells[cellName] = cell
	}
	prepared(p, data.Count)
}

// Main is the runner's entry point: describe, serve or transport.
func Main(runner string, sers []*Serializer) {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: serbench-go describe|serve|transport")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "describe":
		b, _ := json.Marshal(Describe(runner, sers))
		os.Stdout.Write(append(b, '\n'))
	case "serve":
		(&Server{Serializers: sers}).Serve(os.Stdin, os.Stdout)
	case "transport":
		os.Exit(Transport(sers, os.Stdin, os.Stdout))
	default:
		fmt.Fprintf(os.Stderr, "unknown sub-command %q\n", os.Args[1])
		os.Exit(2)
	}
}
