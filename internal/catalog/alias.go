// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// legacyAzureMLKey is the support key catalog files used before the target
// was spelled azureml everywhere; documents may still use it.
const legacyAzureMLKey = "azure_ml"

// UnmarshalJSON decodes a series' support strictly, taking the old
// "azure_ml" key as an alias of "azureml".
func (d *SupportDoc) UnmarshalJSON(b []byte) error {
	type plain SupportDoc
	var v struct {
		plain
		Legacy *SupportEntryDoc `json:"azure_ml"`
	}
	if err := decodeStrict(b, &v); err != nil {
		return err
	}
	*d = SupportDoc(v.plain)
	if v.Legacy != nil {
		if d.AzureML != (SupportEntryDoc{}) {
			return fmt.Errorf("support: give either %q or its old spelling %q, not both", "azureml", legacyAzureMLKey)
		}
		d.AzureML = *v.Legacy
	}
	return nil
}

// UnmarshalJSON decodes a size's support override strictly, taking the old
// "azure_ml" key as an alias of "azureml".
func (d *SupportOverrideDoc) UnmarshalJSON(b []byte) error {
	type plain SupportOverrideDoc
	var v struct {
		plain
		Legacy *SupportEntryDoc `json:"azure_ml"`
	}
	if err := decodeStrict(b, &v); err != nil {
		return err
	}
	*d = SupportOverrideDoc(v.plain)
	if v.Legacy != nil {
		if d.AzureML != nil {
			return fmt.Errorf("support: give either %q or its old spelling %q, not both", "azureml", legacyAzureMLKey)
		}
		d.AzureML = v.Legacy
	}
	return nil
}

// decodeStrict decodes one JSON value rejecting unknown fields, as
// DecodeDocument does for the whole document.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
