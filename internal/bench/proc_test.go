package bench

import (
	"os"
	"testing"
	"time"
)

func TestParseSchedstat(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		want    time.Duration
		wantErr bool
	}{
		{"ThreeFields", "1869000123 80167 12\n", 1869000123, false},
		{"OneField", "42", 42, false},
		{"ErrEmpty", "", 0, true},
		{"ErrNotANumber", "x 1 2", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseSchedstat([]byte(tc.in))
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Fatalf("parseSchedstat(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestParseStatCPU(t *testing.T) {
	// utime 150 and stime 50 ticks: 2 s. The name holds spaces and a
	// parenthesis, as a process may name itself.
	line := "4242 (portal (x) y) S 1 4242 4242 0 -1 4194304 101 0 0 0 150 50 0 0 20 0 9 0 52230 3133440 412 18446744073709551615"
	got, err := parseStatCPU([]byte(line))
	if err != nil || got != 2*time.Second {
		t.Fatalf("parseStatCPU = %v, %v; want 2s", got, err)
	}
	if _, err := parseStatCPU([]byte("4242 (portal) S 1 2")); err == nil {
		t.Fatal("parseStatCPU of a short line: no error")
	}
	if _, err := parseStatCPU([]byte("4242 portal S")); err == nil {
		t.Fatal("parseStatCPU without a name in parentheses: no error")
	}
}

func TestParseStatusMemory(t *testing.T) {
	status := "Name:\tportal\nVmPeak:\t 900000 kB\nVmHWM:\t  131072 kB\nVmRSS:\t   50176 kB\nThreads:\t9\n"
	got, err := parseStatusMemory([]byte(status))
	if err != nil {
		t.Fatal(err)
	}
	if got.RSS != 50176*1024 || got.Peak != 131072*1024 {
		t.Fatalf("parseStatusMemory = %+v; want RSS 49 MiB, peak 128 MiB", got)
	}
	if _, err := parseStatusMemory([]byte("VmRSS:\t 1 kB\n")); err == nil {
		t.Fatal("a status without VmHWM: no error")
	}
	if _, err := parseStatusMemory([]byte("VmRSS:\t 1 MB\nVmHWM:\t 1 kB\n")); err == nil {
		t.Fatal("a size not in kB: no error")
	}
}

func TestParseMachine(t *testing.T) {
	cpu := "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Processor\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R) Processor\n"
	if got := parseCPUModel([]byte(cpu)); got != "Intel(R) Xeon(R) Processor" {
		t.Errorf("parseCPUModel = %q", got)
	}
	if got := parseCPUModel([]byte("processor: 0\n")); got != "unknown" {
		t.Errorf("parseCPUModel without a model = %q; want unknown", got)
	}
	if got := parseMemTotal([]byte("MemTotal:       24684092 kB\nMemFree: 1 kB\n")); got != 24684092*1024 {
		t.Errorf("parseMemTotal = %d", got)
	}
}

// The live reading: spinning shows as this process's CPU. The machine may
// be busy, so the spin runs until 20 ms of CPU are counted, or fails after
// 10 s of wall time.
func TestProcessCPUGrowsWithWork(t *testing.T) {
	before, err := processCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for x := 0; ; x++ {
		if x%100000 == 0 {
			now, err := processCPU(os.Getpid())
			if err != nil {
				t.Fatal(err)
			}
			if now-before >= 20*time.Millisecond {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("10 s of spinning counted %v of CPU", now-before)
			}
		}
	}
	m, err := processMemory(os.Getpid())
	if err != nil || m.RSS <= 0 || m.Peak < m.RSS {
		t.Fatalf("processMemory = %+v, %v", m, err)
	}
}
