// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"strings"
	"sync"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

// embeddedModelIDs lists the ids of the embedded catalog's model table, in
// backticks, for the documentation of model.name: the docs are generated
// from the schema, so they list every model the released catalog has.
var embeddedModelIDs = sync.OnceValue(func() string {
	ids, err := catalog.EmbeddedModelIDs()
	if err != nil {
		return ""
	}
	for i, id := range ids {
		ids[i] = "`" + id + "`"
	}
	return strings.Join(ids, ", ")
})

// modelNameDescription documents model.name: how a name is matched, the
// aliases it resolves, and the embedded table's ids.
func modelNameDescription() string {
	return "A model of the catalog's model table (see the `hpcsku_models` data source), by identifier (`llama-3.1-8b`) or display name (`Llama 3.1 8B`), case-insensitive. " +
		"The table gives the parameter counts, the precision it is published in, and the architecture (layers, KV heads, head dimension, attention kind) " +
		"that sizes the KV cache for `inference` and the activations for `fine_tuning`. " +
		"An instruct or chat variant or a Hugging Face id resolves, with a warning, to the model whose architecture it shares " +
		"(`Llama 3.1 70B Instruct` and `meta-llama/Llama-3.1-70B-Instruct` to `llama-3.1-70b`, `mistral-7b` to `mistral-7b-v0.3`); a model's own identifier or name is never read as a variant. " +
		"A family name that begins several identifiers (`deepseek`, `mistral`) names none of them. An unknown name fails with the closest names. The embedded table's identifiers: " + embeddedModelIDs() + "."
}
