package harness

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

type transportRequest struct {
	Protocol    int         `json:"protocol"`
	Role        string      `json:"role"`
	Serializer  string      `json:"serializer"`
	Dataset     *DatasetRef `json:"dataset"`
	Host        string      `json:"host"`
	Port        int         `json:"port"`
	Repetitions int         `json:"repetitions"`
	Warmup      int         `json:"warmup"`
	Timeout     float64     `json:"timeout"`
}

// Transport runs one side of the S3 socket transport (protocol section 9): frames are a
// 4-byte big-endian length and the encoded dataset (framed as in section 6 for streams).
func Transport(sers []*Serializer, in io.Reader, out io.Writer) int {
	emit := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(append(b, '\n'))
	}
	fail := func(code string, err error) int {
		emit(map[string]any{"event": "error", "code": code, "message": err.Error()})
		return 1
	}
	var req transportRequest
	line, _ := bufio.NewReader(in).ReadBytes('\n')
	if err := json.Unmarshal(line, &req); err != nil || req.Dataset == nil || (req.Role != "send" && req.Role != "receive") {
		return fail("bad_request", fmt.Errorf("not a transport request: %s", line))
	}
	s := &Server{Serializers: sers}
	ser := s.find(req.Serializer)
	if ser == nil {
		return fail("unknown_serializer", fmt.Errorf("no serializer %q", req.Serializer))
	}
	data, err := s.LoadDataset(req.Dataset, req.Dataset.Data)
	if err != nil {
		return fail("bad_data", err)
	}
	cell, p := Prepare(ser, data, data, []string{"encode", "decode"}, "", "")
	if cell == nil {
		msg := p.Detail
		if p.Err != nil {
			msg = p.Err.Message
		}
		return fail("not_applicable", fmt.Errorf("%s: %s", p.Status, msg))
	}
	deadline := time.Now().Add(time.Duration(req.Timeout * float64(time.Second)))
	total := req.Warmup + req.Repetitions
	addr := net.JoinHostPort(req.Host, strconv.Itoa(req.Port))
	if req.Role == "receive" {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return fail("exception", err)
		}
		defer ln.Close()
		emit(map[string]any{"event": "listening", "port": ln.Addr().(*net.TCPAddr).Port})
		ln.(*net.TCPListener).SetDeadline(deadline)
		conn, err := ln.Accept()
		if err != nil {
			return fail("timeout", err)
		}
		defer conn.Close()
		conn.SetDeadline(deadline)
		var recvNs, decNs []int64
		var last any
		var lastMsgs []any
		var hdr [4]byte
		payload := []byte{}
		nbytes := 0
		for i := 0; i < total; i++ {
			if _, err := io.ReadFull(conn, hdr[:]); err != nil {
				return fail("exception", err)
			}
			n := int(binary.BigEndian.Uint32(hdr[:]))
			t0 := time.Now()
			if cap(payload) < n {
				payload = make([]byte, n)
			}
			payload = payload[:n]
			if _, err := io.ReadFull(conn, payload); err != nil {
				return fail("exception", err)
			}
			t1 := time.Now()
			msgs := lastMsgs[:0]
			err := cell.decodeAll(payload, func(_ int, v any) error { msgs = append(msgs, v); return nil })
			t2 := time.Now()
			if _, werr := conn.Write([]byte{1}); werr != nil {
				return fail("exception", werr)
			}
			if err != nil {
				return fail("exception", fmt.Errorf("cannot decode: %w", err))
			}
			lastMsgs, last, nbytes = msgs, payload, n
			if i >= req.Warmup {
				recvNs = append(recvNs, max(int64(t1.Sub(t0)), 1))
				decNs = append(decNs, max(int64(t2.Sub(t1)), 1))
			}
		}
		ok, detail := cell.checkSafe(last.([]byte), cell.data)
		emit(map[string]any{"event": "transport_result", "role": "receive", "receive_ns": recvNs, "decode_ns": decNs,
			"check": map[string]any{"ok": ok, "detail": detail}, "bytes": nbytes})
		return 0
	}
	conn, err := net.DialTimeout("tcp", addr, time.Until(deadline))
	if err != nil {
		return fail("exception", err)
	}
	defer conn.Close()
	conn.SetDeadline(deadline)
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	var encNs, sendNs, totalNs []int64
	var ack [1]byte
	frame := []byte{}
	nbytes := 0
	for i := 0; i < total; i++ {
		t0 := time.Now()
		b, err := cell.encodeAll()
		if err != nil {
			return fail("exception", err)
		}
		t1 := time.Now()
		frame = binary.BigEndian.AppendUint32(frame[:0], uint32(len(b)))
		frame = append(frame, b...)
		if _, err := conn.Write(frame); err != nil {
			return fail("exception", err)
		}
		t2 := time.Now()
		if _, err := io.ReadFull(conn, ack[:]); err != nil {
			return fail("exception", err)
		}
		t3 := time.Now()
		nbytes = len(b)
		if i >= req.Warmup {
			encNs = append(encNs, max(int64(t1.Sub(t0)), 1))
			sendNs = append(sendNs, max(int64(t2.Sub(t1)), 1))
			totalNs = append(totalNs, max(int64(t3.Sub(t0)), 1))
		}
	}
	emit(map[string]any{"event": "transport_result", "role": "send", "encode_ns": encNs, "send_ns": sendNs,
		"total_ns": totalNs, "bytes": nbytes})
	return 0
}
