package model

import "errors"

// UserInfo carries what a user dataset adds: its types file and schemas.
type UserInfo struct {
	TypesPath string
	Schemas   map[string]Schema
}

// Schema is one schema entry of a user dataset (protocol section 7).
type Schema struct {
	Path          string `json:"path"`
	Message       string `json:"message"`
	Unavailable   string `json:"unavailable"`
	DescriptorSet string `json:"descriptor_set"`
}

// ErrNoUserDatasets is what a prepare on a user dataset gets: the runner does not list
// the user_datasets capability (README, Limitations).
var ErrNoUserDatasets = errors.New("the Go runner does not implement user datasets (no user_datasets capability)")

// LoadUser would read a user dataset; not implemented.
func LoadUser(_, _, _ string, _ map[string]Schema) (*Dataset, error) {
	return nil, ErrNoUserDatasets
}
