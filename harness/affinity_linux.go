package harness

import (
	"syscall"
	"unsafe"
)

// cpuMask is a sched_setaffinity mask for up to 1024 CPUs.
type cpuMask [16]uint64

// getAffinity returns the calling thread's CPU mask.
func getAffinity() (cpuMask, error) {
	var m cpuMask
	_, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(m), uintptr(unsafe.Pointer(&m)))
	if errno != 0 {
		return m, errno
	}
	return m, nil
}

// setAffinity pins the calling thread to one CPU.
func setAffinity(cpu int) error {
	var m cpuMask
	if cpu < 0 || cpu >= len(m)*64 {
		return syscall.EINVAL
	}
	m[cpu/64] |= 1 << (cpu % 64)
	return restoreAffinity(m)
}

// restoreAffinity sets the calling thread's CPU mask.
func restoreAffinity(m cpuMask) error {
	_, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, unsafe.Sizeof(m), uintptr(unsafe.Pointer(&m)))
	if errno != 0 {
		return errno
	}
	return nil
}
