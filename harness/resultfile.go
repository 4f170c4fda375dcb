package harness

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// maxResultBytes bounds the result file: a real one is a few hundred bytes.
const maxResultBytes = 1 << 20

// createResultFile makes path an empty regular file of the harness's,
// removing whatever was there (a named pipe left there would block an open
// for writing).
func createResultFile(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

// readResultFile reads the result file the engine left at path. Only a
// regular file is read (the final name not followed if a symbolic link,
// opened without blocking, so a named pipe cannot stall the harness), and
// at most maxResultBytes of it. The read gives up at deadline (at least a
// second from now), for a file system that blocks. A missing file is an
// error that matches fs.ErrNotExist.
func readResultFile(path string, deadline time.Time) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	ch := make(chan result, 1)
	go func() {
		b, err := readRegular(path, maxResultBytes)
		ch <- result{b, err}
	}()
	wait := max(time.Until(deadline), time.Second)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case r := <-ch:
		return r.b, r.err
	case <-t.C:
		return nil, badResultFile(fmt.Sprintf("reading the result file did not finish in %s, within the time limit", wait.Round(time.Millisecond)))
	}
}

func readRegular(path string, limit int64) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC|syscall.O_NOCTTY, 0)
	switch {
	case err == syscall.ELOOP:
		return nil, badResultFile("the result file is a symbolic link, not a regular file")
	case err == syscall.ENOENT:
		return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
	case err != nil:
		return nil, err
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, err
	}
	if kind := st.Mode & syscall.S_IFMT; kind != syscall.S_IFREG {
		return nil, badResultFile(fmt.Sprintf("the result file is %s, not a regular file", fileKind(kind)))
	}
	if st.Size > limit {
		return nil, badResultFile(fmt.Sprintf("the result file is over %d MiB (%d bytes)", limit>>20, st.Size))
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, badResultFile(fmt.Sprintf("the result file is over %d MiB", limit>>20))
	}
	return b, nil
}

// badResultFile is a result file the harness does not read, with the reason
// as a whole message.
type badResultFile string

func (e badResultFile) Error() string { return string(e) }

func fileKind(kind uint32) string {
	switch kind {
	case syscall.S_IFIFO:
		return "a named pipe"
	case syscall.S_IFCHR:
		return "a character device"
	case syscall.S_IFBLK:
		return "a block device"
	case syscall.S_IFSOCK:
		return "a socket"
	case syscall.S_IFDIR:
		return "a folder"
	case syscall.S_IFLNK:
		return "a symbolic link"
	}
	return fmt.Sprintf("of type %#o", kind)
}
