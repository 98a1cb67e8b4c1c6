//go:build !wasm

package app

import (
	"io"
	"os"
	"path/filepath"
)

func (p *preferences) storageWriter() (writeSyncCloser, error) {
	return p.storageWriterForPath(p.storagePath())
}

func (p *preferences) storageReader() (io.ReadCloser, error) {
	return p.storageReaderForPath(p.storagePath())
}

func (p *preferences) storageWriterForPath(path string) (writeSyncCloser, error) {
	err := os.MkdirAll(filepath.Dir(path), 0o700)
	if err != nil { // this is not an exists error according to docs
		return nil, err
	}
	// Written to a file of its own, renamed over path when closed: path
	// is never seen truncated or half written (the folder's watcher
	// reloads it at any change, and read it empty while it was written).
	file, err := os.CreateTemp(filepath.Dir(path), ".preferences-*.json")
	if err != nil {
		return nil, err
	}
	return &renamedFile{File: file, path: path}, nil
}

// renamedFile is a new file that takes path's place when closed.
type renamedFile struct {
	*os.File
	path string
}

func (f *renamedFile) Close() error {
	err := f.File.Close()
	if err == nil {
		err = os.Rename(f.File.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.File.Name())
	}
	return err
}

func (p *preferences) storageReaderForPath(path string) (io.ReadCloser, error) {
	file, err := os.Open(path) // #nosec
	if err != nil {
		if os.IsNotExist(err) {
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				return nil, err
			}
			return nil, errEmptyPreferencesStore
		}
		return nil, err
	}
	return file, nil
}

// the following are only used in tests to save preferences to a tmp file

func (p *preferences) saveToFile(path string) error {
	file, err := p.storageWriterForPath(path)
	if err != nil {
		return err
	}
	return p.saveToStorage(file)
}

func (p *preferences) loadFromFile(path string) error {
	file, err := p.storageReaderForPath(path)
	if err != nil {
		return err
	}
	return p.loadFromStorage(file)
}
