package indexer

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
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
		return &StatCache{entries: make(map[string]statEntry)}, nil
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

// A saved StatCache is statCacheMagic, then the run's start and the
// number of entries, then each entry: its path (a uvarint length and the
// bytes), size, modification and change times (varints), inode (a
// uvarint) and SHA-256 (32 bytes); then the SHA-256 of all after the
// magic.

func decodeStatCache(data []byte) (*StatCache, error) {
	body, ok := bytes.CutPrefix(data, []byte(statCacheMagic))
	if !ok || len(body) < sha256.Size {
		return nil, errors.New("not a stat cache of this version")
	}
	body, sum := body[:len(body)-sha256.Size], body[len(body)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, errors.New("checksum mismatch: the file is damaged")
	}
	r := &statReader{b: body}
	c := &StatCache{at: r.varint(), entries: make(map[string]statEntry)}
	for n := r.uvarint(); n > 0 && r.err == nil; n-- {
		p := string(r.bytes(r.uvarint()))
		e := statEntry{size: r.varint(), mtime: r.varint(), ctime: r.varint(), ino: r.uvarint()}
		copy(e.sha[:], r.bytes(uint64(len(e.sha))))
		c.entries[p] = e
	}
	switch {
	case r.err != nil:
		return nil, r.err
	case len(r.b) != 0:
		return nil, errors.New("bytes after the last entry")
	}
	return c, nil
}

// statReader reads a saved StatCache's body; its first error sticks.
type statReader struct {
	b   []byte
	err error
}

func (r *statReader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *statReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *statReader) bytes(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.fail()
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

// fail ends the reading: every read from here returns nothing.
func (r *statReader) fail() {
	r.b = nil
	if r.err == nil {
		r.err = errors.New("truncated entry")
	}
}

// Save writes c to file, whole or not at all: into a temporary file
// beside it, then renamed over it.
func (c *StatCache) Save(file string) (err error) {
	buf := []byte(statCacheMagic)
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
	}
	sum := sha256.Sum256(buf[len(statCacheMagic):])
	buf = append(buf, sum[:]...)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	if _, err = tmp.Write(buf); err == nil {
		err = tmp.Close()
	} else {
		tmp.Close()
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
