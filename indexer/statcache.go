package indexer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// A StatCache remembers, for each file of a tree that a run read, what
// the file's stat said when it was read and the SHA-256 of its content. A
// later run whose base holds a file of that hash, and finds the file's
// stat the same (size, modification and change times, inode), takes the
// content to be unchanged and does not read the file: git trusts its
// index the same way. A file whose modification time was within
// racyWindow of the run that read it is not trusted: it could have been
// written again within the same tick of the file system's clock.
//
// A StatCache is not safe for concurrent use, but lookups are: a run only
// reads the one it was given, and builds the next apart.
type StatCache struct {
	at      int64 // when the run that read the files started, in Unix ns
	entries map[string]statEntry
}

// statEntry is one file's stat and hash.
type statEntry struct {
	size, mtime, ctime int64
	ino                uint64
	sha                [sha256.Size]byte
}

// racyWindow is how long before a run a file must have been last written
// for the run's stat of it to be trusted later: more than the coarsest
// clock of the common file systems (FAT's two seconds).
const racyWindow = 3 * time.Second

// statCacheMagic begins a saved StatCache; the number is its format's.
const statCacheMagic = "snap stat cache 1\n"

// NewStatCache returns an empty cache of a run that started at.
func NewStatCache(at time.Time) *StatCache {
	return &StatCache{at: at.UnixNano(), entries: make(map[string]statEntry)}
}

// Len returns how many files c holds.
func (c *StatCache) Len() int { return len(c.entries) }

// lookup returns the hex SHA-256 c holds for the file at p, when fi, its
// stat now, is the one c holds and the entry is not racy.
func (c *StatCache) lookup(p string, fi fs.FileInfo) (string, bool) {
	if c == nil {
		return "", false
	}
	e, ok := c.entries[p]
	if !ok || e.mtime > c.at-int64(racyWindow) {
		return "", false
	}
	now, ok := statOf(fi)
	if !ok || now.size != e.size || now.mtime != e.mtime || now.ctime != e.ctime || now.ino != e.ino {
		return "", false
	}
	return hex.EncodeToString(e.sha[:]), true
}

// add records the file at p, of stat fi and hex SHA-256 sha. A stat the
// platform does not describe fully (see statOf) is not recorded.
func (c *StatCache) add(p string, fi fs.FileInfo, sha string) {
	e, ok := statOf(fi)
	if !ok || hex.DecodedLen(len(sha)) != len(e.sha) {
		return
	}
	if _, err := hex.Decode(e.sha[:], []byte(sha)); err != nil {
		return
	}
	c.entries[p] = e
}

// LoadStatCache reads the cache saved at file. A cache that is missing is
// empty and no error; one that is damaged is an error, and the caller
// goes on without it.
func LoadStatCache(file string) (*StatCache, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return NewStatCache(time.Time{}), nil
	}
	if err != nil {
		return nil, err
	}
	c, err := decodeStatCache(data)
	if err != nil {
		return nil, fmt.Errorf("stat cache %s: %w", file, err)
	}
	return c, nil
}

func decodeStatCache(data []byte) (*StatCache, error) {
	body, ok := bytes.CutPrefix(data, []byte(statCacheMagic))
	if !ok || len(body) < sha256.Size {
		return nil, errors.New("not a stat cache of this version")
	}
	body, sum := body[:len(body)-sha256.Size], body[len(body)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, errors.New("checksum mismatch: the file is damaged")
	}
	bad := errors.New("truncated entry")
	varint := func() int64 {
		v, n := binary.Varint(body)
		if n <= 0 {
			panic(bad)
		}
		body = body[n:]
		return v
	}
	uvarint := func() uint64 {
		v, n := binary.Uvarint(body)
		if n <= 0 {
			panic(bad)
		}
		body = body[n:]
		return v
	}
	c := &StatCache{entries: make(map[string]statEntry)}
	err := func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = bad
			}
		}()
		c.at = varint()
		n := uvarint()
		for range n {
			l := uvarint()
			if l > uint64(len(body)) {
				return bad
			}
			p := string(body[:l])
			body = body[l:]
			var e statEntry
			e.size, e.mtime, e.ctime, e.ino = varint(), varint(), varint(), uvarint()
			if len(body) < len(e.sha) {
				return bad
			}
			body = body[copy(e.sha[:], body):]
			c.entries[p] = e
		}
		if len(body) != 0 {
			return errors.New("bytes after the last entry")
		}
		return nil
	}()
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Save writes c to file, whole or not at all: into a temporary file
// beside it, then renamed over it.
func (c *StatCache) Save(file string) (err error) {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	h := sha256.New()
	w := bufio.NewWriterSize(tmp, 1<<16)
	if _, err := w.WriteString(statCacheMagic); err != nil {
		return err
	}
	body := bufio.NewWriterSize(io.MultiWriter(w, h), 1<<16)
	var buf []byte
	buf = binary.AppendVarint(buf, c.at)
	buf = binary.AppendUvarint(buf, uint64(len(c.entries)))
	for p, e := range c.entries {
		buf = binary.AppendUvarint(buf, uint64(len(p)))
		buf = append(buf, p...)
		buf = binary.AppendVarint(buf, e.size)
		buf = binary.AppendVarint(buf, e.mtime)
		buf = binary.AppendVarint(buf, e.ctime)
		buf = binary.AppendUvarint(buf, e.ino)
		buf = append(buf, e.sha[:]...)
		if len(buf) > 1<<15 {
			if _, err := body.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	if _, err := body.Write(buf); err != nil {
		return err
	}
	if err := body.Flush(); err != nil {
		return err
	}
	if _, err := w.Write(h.Sum(nil)); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}
