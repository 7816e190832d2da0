package model

import "fmt"

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

// LoadUser reads a user dataset: generic value trees interpreted through its types file.
func LoadUser(name, path, typesPath string, schemas map[string]Schema) (*Dataset, error) {
	return nil, fmt.Errorf("user datasets: not implemented")
}

// Native returns the value a reflective library encodes for a user message.
func (d *Dataset) Native(msg any) any { return msg }
