package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// The CPU of a process is read from outside, from /proc, so the figure is
// the server's own work whatever else the machine runs: the load generator,
// the other engineers' builds.

// processCPU is the CPU time the process's threads have run: the sum of the
// first field of /proc/PID/task/*/schedstat (nanoseconds). A thread that
// exits takes its time with it, but Go's threads live as long as the
// process, and a round is long enough that ticks (/proc/PID/stat, 10 ms
// each) would blur the floors' few milliseconds.
func processCPU(pid int) (time.Duration, error) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0, fmt.Errorf("bench: cpu of process %d: %w", pid, err)
	}
	if _, err := os.Stat(fmt.Sprintf("/proc/%d/schedstat", pid)); err != nil {
		// A kernel without scheduler statistics: ticks it is.
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return 0, fmt.Errorf("bench: cpu of process %d: %w", pid, err)
		}
		return parseStatCPU(b)
	}
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "task", t.Name(), "schedstat"))
		if err != nil {
			continue // the thread ended between the listing and the read
		}
		ns, err := parseSchedstat(b)
		if err != nil {
			return 0, fmt.Errorf("bench: cpu of process %d: %w", pid, err)
		}
		sum += ns
	}
	return sum, nil
}

// parseSchedstat reads the time on CPU, the first of schedstat's three
// numbers ("on-cpu-ns waiting-ns timeslices").
func parseSchedstat(b []byte) (time.Duration, error) {
	fields := strings.Fields(string(b))
	if len(fields) < 1 {
		return 0, fmt.Errorf("schedstat %q: no fields", b)
	}
	ns, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("schedstat %q: %w", b, err)
	}
	return time.Duration(ns), nil
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat's times; 100 on every
// Linux architecture Go runs on.
const clockTicks = 100

// parseStatCPU reads utime+stime from a /proc/PID/stat line. The command
// name (field 2) is in parentheses and may hold spaces or parentheses, so
// the fields are counted from the last ')'.
func parseStatCPU(b []byte) (time.Duration, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("stat %q: no command name", b)
	}
	// After ") " come field 3 (state) onwards; utime and stime are fields
	// 14 and 15, so the 12th and 13th here.
	fields := strings.Fields(string(b[i+1:]))
	if len(fields) < 13 {
		return 0, fmt.Errorf("stat: %d fields after the name, want at least 13", len(fields))
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("stat: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// memory is what /proc/PID/status says of a process's resident memory.
type memory struct {
	RSS  int64 // VmRSS, bytes
	Peak int64 // VmHWM, the highest RSS so far, bytes
}

func processMemory(pid int) (memory, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return memory{}, fmt.Errorf("bench: memory of process %d: %w", pid, err)
	}
	return parseStatusMemory(b)
}

// parseStatusMemory reads VmRSS and VmHWM ("VmRSS:	  49152 kB").
func parseStatusMemory(b []byte) (memory, error) {
	var m memory
	var found int
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		n, err := parseKB(value)
		if err != nil {
			return memory{}, fmt.Errorf("status %s: %w", name, err)
		}
		if name == "VmRSS" {
			m.RSS = n
		} else {
			m.Peak = n
		}
		found++
	}
	if found != 2 {
		return memory{}, fmt.Errorf("status: VmRSS and VmHWM not both found")
	}
	return m, nil
}

// parseKB reads "  49152 kB" as bytes.
func parseKB(s string) (int64, error) {
	f := strings.Fields(s)
	if len(f) != 2 || f[1] != "kB" {
		return 0, fmt.Errorf("%q is not a size in kB", s)
	}
	n, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return 0, err
	}
	return n * 1024, nil
}

// Machine describes where the figures were taken.
type Machine struct {
	CPU    string // model name
	Cores  int
	Memory int64 // bytes
}

func readMachine() Machine {
	m := Machine{CPU: "unknown", Cores: runtime.NumCPU()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		m.CPU = parseCPUModel(b)
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		m.Memory = parseMemTotal(b)
	}
	return m
}

func parseCPUModel(b []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(name) == "model name" {
			return strings.TrimSpace(value)
		}
	}
	return "unknown"
}

func parseMemTotal(b []byte) int64 {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if ok && name == "MemTotal" {
			n, err := parseKB(value)
			if err == nil {
				return n
			}
		}
	}
	return 0
}
