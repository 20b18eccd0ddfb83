// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"maps"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// badInput is one invalid configuration and the error Terraform must print
// for it. Terraform prints an error as
//
//	Error: <summary>
//
//	  with data.hpcsku_sku.x,
//	  on terraform_plugin_test.tf line 12, in data "hpcsku_sku" "x":
//	  12:   name = ""
//
//	<detail>
//
// The pattern requires the summary, the address after "with" (for errors
// Terraform finds in the configuration itself there is no "with" line; for
// a function the call after "while calling"), the configuration line
// Terraform points at, and the key words of the detail in order, after it.
type badInput struct {
	config string
	// attr is the attribute, nested attribute or function parameter the
	// error is about; the line or the detail must name it.
	attr string
	// with is the address Terraform prints after "with"; empty for errors
	// Terraform finds in the configuration itself.
	with string
	// call is the function call Terraform prints after "while calling",
	// for function errors (with is then empty).
	call    string
	line    string // the configuration line Terraform shows
	summary string
	detail  []string // key words of the detail, in order, each matched across line wrapping
}

const (
	recAddr      = "data.hpcsku_recommendation.x"
	catAddr      = "data.hpcsku_catalog.x"
	skuAddr      = "data.hpcsku_sku.x"
	modelsAddr   = "data.hpcsku_models.x"
	providerAddr = `provider["registry.terraform.io/hashicorp/hpcsku"]`
	// gpuMemoryCall is how Terraform shows a gpu_memory_gib call.
	gpuMemoryCall = "provider::hpcsku::gpu_memory_gib(parameters_billion, precision, workload, options...)"
	// trainingHoursCall is how Terraform shows an estimate_training_hours call.
	trainingHoursCall = "provider::hpcsku::estimate_training_hours(active_parameters_billion, tokens_billion, vm_size, nodes, precision)"
)

func (c badInput) pattern() *regexp.Regexp {
	snippet := `on \S+ line \d+, in [^\n]+:\s+\d+:\s*` + wrapped(c.line)
	var b strings.Builder
	b.WriteString(`Error: ` + wrapped(c.summary) + `\s+`)
	switch {
	case c.call != "":
		b.WriteString(snippet + `[\s\S]*?while calling ` + regexp.QuoteMeta(c.call) + `\s+`)
	case c.with != "":
		b.WriteString(`with ` + regexp.QuoteMeta(c.with) + `,\s+` + snippet + `\s+`)
	default:
		b.WriteString(snippet + `\s+`)
	}
	for _, d := range c.detail {
		b.WriteString(`[\s\S]*?` + wrapped(d))
	}
	return regexp.MustCompile(b.String())
}

// rec, cat, sku and models wrap attribute lines in a data source block; prov wraps
// provider settings, with an hpcsku_sku data source so the provider is used.
func rec(lines ...string) string    { return block(`data "hpcsku_recommendation" "x"`, lines) }
func cat(lines ...string) string    { return block(`data "hpcsku_catalog" "x"`, lines) }
func sku(lines ...string) string    { return block(`data "hpcsku_sku" "x"`, lines) }
func models(lines ...string) string { return block(`data "hpcsku_models" "x"`, lines) }
func prov(lines ...string) string {
	return block(`provider "hpcsku"`, lines) + "\n" + sku(`name = "Standard_NC24rs_v3"`)
}
func fn(call string) string { return "output \"x\" {\n  value = " + call + "\n}\n" }

func block(header string, lines []string) string {
	return header + " {\n  " + strings.Join(lines, "\n  ") + "\n}\n"
}

// hugeList is an HCL list of 5,000 strings with the given prefix (range()
// stops at 1,024 values, so it is built in five blocks).
func hugeList(prefix string) string {
	return `flatten([for j in range(5) : [for i in range(1000) : "` + prefix + `${j}-${i}"]])`
}

// badInputs are the cases of TestBadInputMatrix that name no file; the
// cases that do are badFileInputs.
var badInputs = map[string]badInput{
	// hpcsku_recommendation
	"recommendation/workload wrong type": {
		config: rec(`workload = ["training"]`), attr: "workload", line: `workload = ["training"]`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "workload": string required.`},
	},
	"recommendation/workload missing": {
		config: rec(`region = "eastus"`), attr: "workload", line: `data "hpcsku_recommendation" "x" {`,
		summary: "Missing required argument", detail: []string{`The argument "workload" is required`},
	},
	"recommendation/workload empty": {
		config: rec(`workload = ""`), attr: "workload", with: recAddr, line: `workload = ""`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute workload value must be one of:`, `got: ""`},
	},
	"recommendation/workload unknown enum": {
		config: rec(`workload = "gaming"`), attr: "workload", with: recAddr, line: `workload = "gaming"`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute workload value must be one of:`, `"training"`, `got: "gaming"`},
	},
	"recommendation/workload unknown at plan, invalid at apply": {
		config: rec(`workload = uuid()`), attr: "workload", with: recAddr, line: `workload = uuid()`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute workload value must be one of:`},
	},
	"recommendation/model wrong type": {
		config: rec(`workload = "inference"`, `model = "7B"`), attr: "model", line: `model = "7B"`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "model": object required.`},
	},
	"recommendation/model with neither name nor parameters_billion": {
		config: rec(`workload = "inference"`, `model = { precision = "bf16" }`), attr: "model.parameters_billion", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Invalid Attribute Combination", detail: []string{`At least one attribute out of [model.name,model.parameters_billion] must be specified`},
	},
	"recommendation/model.name wrong type": {
		config: rec(`workload = "inference"`, `model = { name = ["llama-3.1-8b"] }`), attr: "name", line: `model = { name = ["llama-3.1-8b"] }`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "model": attribute "name": string required.`},
	},
	"recommendation/model.name empty": {
		config: rec(`workload = "inference"`, `model = { name = "" }`), attr: "model.name", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Invalid Attribute Value Length", detail: []string{`Attribute model.name string length must be at least 1, got: 0`},
	},
	"recommendation/model.name unknown": {
		config: rec(`workload = "inference"`, `model = { name = "llama-3.1-9b" }`), attr: "name", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Unknown Model", detail: []string{`The model "llama-3.1-9b" is not in the catalog (version `, `Did you mean one of: llama-3.1-8b`, `Or describe the model with model.parameters_billion instead of model.name.`},
	},
	"recommendation/model.name unknown at plan, invalid at apply": {
		config: rec(`workload = "inference"`, `model = { name = "llama-${uuid()}" }`), attr: "name", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Unknown Model", detail: []string{`is not in the catalog (version `, `Did you mean one of:`, `instead of model.name.`},
	},
	"recommendation/model.active_parameters_billion wrong type": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 47, active_parameters_billion = "13B" }`), attr: "active_parameters_billion",
		line:    `model = { parameters_billion = 47, active_parameters_billion = "13B" }`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "model": a number is required.`},
	},
	"recommendation/model.active_parameters_billion zero": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 47, active_parameters_billion = 0 }`), attr: "active_parameters_billion", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Invalid Active Parameter Count", detail: []string{`model.active_parameters_billion must be greater than 0; got 0.`},
	},
	"recommendation/model.active_parameters_billion negative": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 47, active_parameters_billion = -13 }`), attr: "active_parameters_billion", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Invalid Active Parameter Count", detail: []string{`model.active_parameters_billion must be greater than 0; got -13.`},
	},
	"recommendation/model.active_parameters_billion above parameters_billion": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 47, active_parameters_billion = 48 }`), attr: "active_parameters_billion", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Active Parameters Above Total", detail: []string{`model.active_parameters_billion (48) must be at most model.parameters_billion (47)`},
	},
	"recommendation/model.precision int4 for training": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7, precision = "int4" }`), attr: "precision", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Precision Cannot Train", detail: []string{`Training updates every weight, which int4 cannot hold`, `Set model.precision to one of those, or use workload "fine_tuning" with fine_tuning_method "lora" or "qlora"`},
	},
	"recommendation/fine_tuning_method wrong type": {
		config: rec(`workload = "fine_tuning"`, `model = { parameters_billion = 7 }`, `fine_tuning_method = ["lora"]`), attr: "fine_tuning_method", line: `fine_tuning_method = ["lora"]`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "fine_tuning_method": string required.`},
	},
	"recommendation/fine_tuning_method unknown enum": {
		config: rec(`workload = "fine_tuning"`, `model = { parameters_billion = 7 }`, `fine_tuning_method = "dora"`), attr: "fine_tuning_method", with: recAddr, line: `fine_tuning_method = "dora"`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute fine_tuning_method value must be one of: ["full" "lora" "qlora"], got: "dora"`},
	},
	"recommendation/fine_tuning_method on inference": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `fine_tuning_method = "lora"`), attr: "fine_tuning_method", with: recAddr, line: `fine_tuning_method = "lora"`,
		summary: "Argument Not Used By Workload", detail: []string{`fine_tuning_method applies to fine-tuning, not to workload "inference". Remove fine_tuning_method, or set workload to "fine_tuning".`},
	},
	"recommendation/fine_tuning_method full on an int8 model": {
		config: rec(`workload = "fine_tuning"`, `model = { parameters_billion = 7, precision = "int8" }`, `fine_tuning_method = "full"`), attr: "fine_tuning_method", with: recAddr, line: `fine_tuning_method = "full"`,
		summary: "Precision Cannot Train", detail: []string{`Full fine-tuning updates every weight, which int8 cannot hold. Use fine_tuning_method "lora" or "qlora"`},
	},
	"recommendation/context_tokens wrong type": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `context_tokens = "8k"`), attr: "context_tokens", line: `context_tokens = "8k"`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "context_tokens": a number is required.`},
	},
	"recommendation/context_tokens fractional": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `context_tokens = 4096.5`), attr: "context_tokens", with: recAddr, line: `context_tokens = 4096.5`,
		summary: "Configuration Read Error", detail: []string{`is not an integer`},
	},
	"recommendation/context_tokens zero": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `context_tokens = 0`), attr: "context_tokens", with: recAddr, line: `context_tokens = 0`,
		summary: "Invalid Context Length", detail: []string{`context_tokens must be at least 1 and at most 10,485,760; got 0.`},
	},
	"recommendation/context_tokens above the maximum": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `context_tokens = 10485761`), attr: "context_tokens", with: recAddr, line: `context_tokens = 10485761`,
		summary: "Invalid Context Length", detail: []string{`context_tokens must be at least 1 and at most 10,485,760; got 10485761.`},
	},
	"recommendation/context_tokens on hpc": {
		config: rec(`workload = "hpc"`, `cores = 256`, `context_tokens = 8192`), attr: "context_tokens", with: recAddr, line: `context_tokens = 8192`,
		summary: "Argument Not Used By Workload", detail: []string{`context_tokens applies to language-model jobs (the tokens of one sequence), not to workload "hpc". Remove context_tokens, or set workload to "training", "fine_tuning", "inference".`},
	},
	"recommendation/concurrent_requests wrong type": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `concurrent_requests = {}`), attr: "concurrent_requests", line: `concurrent_requests = {}`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "concurrent_requests": number required.`},
	},
	"recommendation/concurrent_requests negative": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `concurrent_requests = -8`), attr: "concurrent_requests", with: recAddr, line: `concurrent_requests = -8`,
		summary: "Invalid Concurrent Requests", detail: []string{`concurrent_requests must be at least 1 and at most 100,000; got -8.`},
	},
	"recommendation/concurrent_requests above the maximum": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `concurrent_requests = 100001`), attr: "concurrent_requests", with: recAddr, line: `concurrent_requests = 100001`,
		summary: "Invalid Concurrent Requests", detail: []string{`concurrent_requests must be at least 1 and at most 100,000; got 100001.`},
	},
	"recommendation/prompt_tokens negative": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `prompt_tokens = -1`), attr: "prompt_tokens", with: recAddr, line: `prompt_tokens = -1`,
		summary: "Invalid Prompt Length", detail: []string{`prompt_tokens must be at least 1 and at most 10,485,760; got -1.`},
	},
	"recommendation/prompt_tokens zero": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `prompt_tokens = 0`), attr: "prompt_tokens", with: recAddr, line: `prompt_tokens = 0`,
		summary: "Invalid Prompt Length", detail: []string{`prompt_tokens must be at least 1 and at most 10,485,760; got 0.`},
	},
	"recommendation/prompt_tokens on training": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `prompt_tokens = 512`), attr: "prompt_tokens", with: recAddr, line: `prompt_tokens = 512`,
		summary: "Argument Not Used By Workload", detail: []string{`prompt_tokens applies to serving a model, not to workload "training". Remove prompt_tokens, or set workload to "inference".`},
	},
	"recommendation/output_tokens negative": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `output_tokens = -5`), attr: "output_tokens", with: recAddr, line: `output_tokens = -5`,
		summary: "Invalid Output Length", detail: []string{`output_tokens must be at least 1 and at most 10,485,760; got -5.`},
	},
	"recommendation/output_tokens zero": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `output_tokens = 0`), attr: "output_tokens", with: recAddr, line: `output_tokens = 0`,
		summary: "Invalid Output Length", detail: []string{`output_tokens must be at least 1 and at most 10,485,760; got 0.`},
	},
	"recommendation/context_tokens shorter than prompt plus output": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `context_tokens = 1000`, `prompt_tokens = 900`, `output_tokens = 200`), attr: "context_tokens", with: recAddr, line: `context_tokens = 1000`,
		summary: "Context Shorter Than Request", detail: []string{`context_tokens (1,000) is the longest sequence and cannot be shorter than prompt_tokens plus output_tokens (1,100).`},
	},
	"recommendation/prompt_tokens beyond the model's context": {
		config: rec(`workload = "inference"`, `model = { name = "phi-3-mini" }`, `prompt_tokens = 32000`, `output_tokens = 200`, `requests_per_second = 0.1`), attr: "prompt_tokens", with: recAddr, line: `prompt_tokens = 32000`,
		summary: "Request Longer Than Model Context", detail: []string{`prompt_tokens plus output_tokens (32,200) exceed Phi-3-mini-4k-instruct (3.8B)'s maximum context of 4,096 tokens: the serving engines refuse such requests. Lower prompt_tokens, or choose a model with a longer context.`},
	},
	"recommendation/context_tokens beyond the model's context": {
		config: rec(`workload = "inference"`, `model = { name = "deepseek-r1" }`, `context_tokens = 200000`, `requests_per_second = 0.5`), attr: "context_tokens", with: recAddr, line: `context_tokens = 200000`,
		summary: "Context Longer Than Model Context", detail: []string{`context_tokens (200,000) exceeds DeepSeek-R1's maximum context of 131,072 tokens: the serving engines refuse a longer context. Set context_tokens to at most 131,072, or choose a model with a longer context.`},
	},
	"recommendation/concurrent_requests on training": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `concurrent_requests = 32`), attr: "concurrent_requests", with: recAddr, line: `concurrent_requests = 32`,
		summary: "Argument Not Used By Workload", detail: []string{`concurrent_requests applies to serving a model, not to workload "training". Remove concurrent_requests, or set workload to "inference".`},
	},
	"recommendation/training_batch_size wrong type": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `training_batch_size = [4]`), attr: "training_batch_size", line: `training_batch_size = [4]`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "training_batch_size": number required.`},
	},
	"recommendation/training_batch_size zero": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `training_batch_size = 0`), attr: "training_batch_size", with: recAddr, line: `training_batch_size = 0`,
		summary: "Invalid Training Batch Size", detail: []string{`training_batch_size must be at least 1 and at most 100,000; got 0.`},
	},
	"recommendation/training_batch_size above the maximum": {
		config: rec(`workload = "fine_tuning"`, `model = { parameters_billion = 7 }`, `training_batch_size = 100001`), attr: "training_batch_size", with: recAddr, line: `training_batch_size = 100001`,
		summary: "Invalid Training Batch Size", detail: []string{`training_batch_size must be at least 1 and at most 100,000; got 100001.`},
	},
	"recommendation/training_batch_size on inference": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `training_batch_size = 4`), attr: "training_batch_size", with: recAddr, line: `training_batch_size = 4`,
		summary: "Argument Not Used By Workload", detail: []string{`training_batch_size applies to training and fine-tuning, not to workload "inference". Remove training_batch_size, or set workload to "training", "fine_tuning".`},
	},
	"recommendation/tokens_billion wrong type": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `tokens_billion = "300B"`), attr: "tokens_billion", line: `tokens_billion = "300B"`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "tokens_billion": a number is required.`},
	},
	"recommendation/tokens_billion zero": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `tokens_billion = 0`), attr: "tokens_billion", with: recAddr, line: `tokens_billion = 0`,
		summary: "Invalid Token Count", detail: []string{`tokens_billion must be greater than 0 and at most 1,000,000; got 0.`},
	},
	"recommendation/tokens_billion negative": {
		config: rec(`workload = "fine_tuning"`, `model = { parameters_billion = 7 }`, `tokens_billion = -1.5`), attr: "tokens_billion", with: recAddr, line: `tokens_billion = -1.5`,
		summary: "Invalid Token Count", detail: []string{`tokens_billion must be greater than 0 and at most 1,000,000; got -1.5.`},
	},
	"recommendation/tokens_billion above the maximum": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `tokens_billion = 1000001`), attr: "tokens_billion", with: recAddr, line: `tokens_billion = 1000001`,
		summary: "Invalid Token Count", detail: []string{`tokens_billion must be greater than 0 and at most 1,000,000; got 1000001.`},
	},
	"recommendation/tokens_billion on inference": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `tokens_billion = 300`), attr: "tokens_billion", with: recAddr, line: `tokens_billion = 300`,
		summary: "Argument Not Used By Workload", detail: []string{`tokens_billion applies to training and fine-tuning (the tokens processed), not to workload "inference". Remove tokens_billion, or set workload to "training", "fine_tuning".`},
	},
	"recommendation/deadline_hours wrong type": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `deadline_hours = "a week"`), attr: "deadline_hours", line: `deadline_hours = "a week"`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "deadline_hours": a number is required.`},
	},
	"recommendation/deadline_hours zero": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `deadline_hours = 0`), attr: "deadline_hours", with: recAddr, line: `deadline_hours = 0`,
		summary: "Invalid Deadline", detail: []string{`deadline_hours must be greater than 0 and at most 87,600; got 0.`},
	},
	"recommendation/deadline_hours negative": {
		config: rec(`workload = "fine_tuning"`, `model = { parameters_billion = 7 }`, `deadline_hours = -24`), attr: "deadline_hours", with: recAddr, line: `deadline_hours = -24`,
		summary: "Invalid Deadline", detail: []string{`deadline_hours must be greater than 0 and at most 87,600; got -24.`},
	},
	"recommendation/deadline_hours above the maximum": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `deadline_hours = 87601`), attr: "deadline_hours", with: recAddr, line: `deadline_hours = 87601`,
		summary: "Invalid Deadline", detail: []string{`deadline_hours must be greater than 0 and at most 87,600; got 87601.`},
	},
	"recommendation/deadline_hours on hpc": {
		config: rec(`workload = "hpc"`, `cores = 256`, `deadline_hours = 48`), attr: "deadline_hours", with: recAddr, line: `deadline_hours = 48`,
		summary: "Argument Not Used By Workload", detail: []string{`deadline_hours applies to training and fine-tuning, not to workload "hpc". Remove deadline_hours, or set workload to "training", "fine_tuning".`},
	},
	"recommendation/deadline_hours unknown at plan, invalid at apply": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `deadline_hours = length(uuid()) - 100`), attr: "deadline_hours", with: recAddr, line: `deadline_hours = length(uuid()) - 100`,
		summary: "Invalid Deadline", detail: []string{`deadline_hours must be greater than 0 and at most 87,600; got -64.`},
	},
	"recommendation/tokens_per_second wrong type": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `tokens_per_second = ["5000"]`), attr: "tokens_per_second", line: `tokens_per_second = ["5000"]`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "tokens_per_second": number required.`},
	},
	"recommendation/max_time_to_first_token_ms zero": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `max_time_to_first_token_ms = 0`), attr: "max_time_to_first_token_ms", with: recAddr, line: `max_time_to_first_token_ms = 0`,
		summary: "Invalid Latency Target", detail: []string{`max_time_to_first_token_ms must be greater than 0 and at most 3,600,000; got 0.`},
	},
	"recommendation/max_time_to_first_token_ms negative": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `max_time_to_first_token_ms = -200`), attr: "max_time_to_first_token_ms", with: recAddr, line: `max_time_to_first_token_ms = -200`,
		summary: "Invalid Latency Target", detail: []string{`max_time_to_first_token_ms must be greater than 0 and at most 3,600,000; got -200.`},
	},
	"recommendation/max_time_per_output_token_ms zero": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `max_time_per_output_token_ms = 0`), attr: "max_time_per_output_token_ms", with: recAddr, line: `max_time_per_output_token_ms = 0`,
		summary: "Invalid Latency Target", detail: []string{`max_time_per_output_token_ms must be greater than 0 and at most 3,600,000; got 0.`},
	},
	"recommendation/max_time_per_output_token_ms negative": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `max_time_per_output_token_ms = -30`), attr: "max_time_per_output_token_ms", with: recAddr, line: `max_time_per_output_token_ms = -30`,
		summary: "Invalid Latency Target", detail: []string{`max_time_per_output_token_ms must be greater than 0 and at most 3,600,000; got -30.`},
	},
	"recommendation/max_time_per_output_token_ms on training": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `max_time_per_output_token_ms = 30`), attr: "max_time_per_output_token_ms", with: recAddr, line: `max_time_per_output_token_ms = 30`,
		summary: "Argument Not Used By Workload", detail: []string{`max_time_per_output_token_ms applies to serving a model, not to workload "training". Remove max_time_per_output_token_ms, or set workload to "inference".`},
	},
	"recommendation/max_time_per_output_token_ms no size meets": {
		config: rec(`workload = "inference"`, `model = { name = "llama-3.1-70b" }`, `max_time_per_output_token_ms = 0.1`), attr: "max_time_per_output_token_ms", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "No VM Size Fits", detail: []string{`max_time_per_output_token_ms:`, `No layout generates a token every 0.1 ms (max_time_per_output_token_ms)`},
	},
	"recommendation/max_time_to_first_token_ms no size meets": {
		config: rec(`workload = "inference"`, `model = { name = "llama-3.1-70b" }`, `max_time_to_first_token_ms = 1`), attr: "max_time_to_first_token_ms", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "No VM Size Fits", detail: []string{`max_time_to_first_token_ms:`, `No layout brings a request's first token within 1 ms (max_time_to_first_token_ms)`},
	},
	"recommendation/min_replicas zero": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `min_replicas = 0`), attr: "min_replicas", with: recAddr, line: `min_replicas = 0`,
		summary: "Invalid Minimum Replicas", detail: []string{`min_replicas must be at least 1 and at most 1,000; got 0.`},
	},
	"recommendation/min_replicas negative": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `min_replicas = -2`), attr: "min_replicas", with: recAddr, line: `min_replicas = -2`,
		summary: "Invalid Minimum Replicas", detail: []string{`min_replicas must be at least 1 and at most 1,000; got -2.`},
	},
	"recommendation/min_replicas on hpc": {
		config: rec(`workload = "hpc"`, `cores = 256`, `min_replicas = 2`), attr: "min_replicas", with: recAddr, line: `min_replicas = 2`,
		summary: "Argument Not Used By Workload", detail: []string{`min_replicas applies to serving a model, not to workload "hpc". Remove min_replicas, or set workload to "inference".`},
	},
	"recommendation/tokens_per_second zero": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `tokens_per_second = 0`), attr: "tokens_per_second", with: recAddr, line: `tokens_per_second = 0`,
		summary: "Invalid Throughput", detail: []string{`tokens_per_second must be greater than 0 and at most 1,000,000,000; got 0.`},
	},
	"recommendation/tokens_per_second negative": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `tokens_per_second = -5000`), attr: "tokens_per_second", with: recAddr, line: `tokens_per_second = -5000`,
		summary: "Invalid Throughput", detail: []string{`tokens_per_second must be greater than 0 and at most 1,000,000,000; got -5000.`},
	},
	"recommendation/tokens_per_second above the maximum": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `tokens_per_second = 1e10`), attr: "tokens_per_second", with: recAddr, line: `tokens_per_second = 1e10`,
		summary: "Invalid Throughput", detail: []string{`tokens_per_second must be greater than 0 and at most 1,000,000,000; got 10000000000.`},
	},
	"recommendation/tokens_per_second on training": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `tokens_per_second = 5000`), attr: "tokens_per_second", with: recAddr, line: `tokens_per_second = 5000`,
		summary: "Argument Not Used By Workload", detail: []string{`tokens_per_second applies to serving a model, not to workload "training". Remove tokens_per_second, or set workload to "inference".`},
	},
	"recommendation/requests_per_second zero": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `requests_per_second = 0`), attr: "requests_per_second", with: recAddr, line: `requests_per_second = 0`,
		summary: "Invalid Request Rate", detail: []string{`requests_per_second must be greater than 0 and at most 1,000,000; got 0.`},
	},
	"recommendation/requests_per_second above the maximum": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `requests_per_second = 2e6`), attr: "requests_per_second", with: recAddr, line: `requests_per_second = 2e6`,
		summary: "Invalid Request Rate", detail: []string{`requests_per_second must be greater than 0 and at most 1,000,000; got 2000000.`},
	},
	"recommendation/requests_per_second with tokens_per_second": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `tokens_per_second = 5000`, `requests_per_second = 20`), attr: "requests_per_second", with: recAddr, line: `requests_per_second = 20`,
		summary: "Conflicting Load", detail: []string{`requests_per_second and tokens_per_second both state the service's load`, `Set one of them.`},
	},
	"recommendation/requests_per_second on training": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `requests_per_second = 20`), attr: "requests_per_second", with: recAddr, line: `requests_per_second = 20`,
		summary: "Argument Not Used By Workload", detail: []string{`requests_per_second applies to serving a model, not to workload "training". Remove requests_per_second, or set workload to "inference".`},
	},
	"recommendation/requests_per_second on hpc": {
		config: rec(`workload = "hpc"`, `cores = 256`, `requests_per_second = 20`), attr: "requests_per_second", with: recAddr, line: `requests_per_second = 20`,
		summary: "Argument Not Used By Workload", detail: []string{`requests_per_second applies to serving a model, not to workload "hpc". Remove requests_per_second, or set workload to "inference".`},
	},
	"recommendation/hpc_bound wrong type": {
		config: rec(`workload = "hpc"`, `cores = 256`, `hpc_bound = ["compute"]`), attr: "hpc_bound", line: `hpc_bound = ["compute"]`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "hpc_bound": string required.`},
	},
	"recommendation/hpc_bound unknown enum": {
		config: rec(`workload = "hpc"`, `cores = 256`, `hpc_bound = "latency"`), attr: "hpc_bound", with: recAddr, line: `hpc_bound = "latency"`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute hpc_bound value must be one of: ["memory_bandwidth" "compute" "memory_capacity"], got: "latency"`},
	},
	"recommendation/hpc_bound empty": {
		config: rec(`workload = "htc"`, `hpc_bound = ""`), attr: "hpc_bound", with: recAddr, line: `hpc_bound = ""`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute hpc_bound value must be one of:`, `got: ""`},
	},
	"recommendation/parallel_efficiency zero": {
		config: rec(`workload = "hpc"`, `cores = 256`, `parallel_efficiency = 0`), attr: "parallel_efficiency", with: recAddr, line: `parallel_efficiency = 0`,
		summary: "Invalid Parallel Efficiency", detail: []string{`parallel_efficiency must be greater than 0 and at most 1.5; got 0.`},
	},
	"recommendation/parallel_efficiency negative": {
		config: rec(`workload = "hpc"`, `cores = 256`, `nodes = 4`, `parallel_efficiency = -0.8`), attr: "parallel_efficiency", with: recAddr, line: `parallel_efficiency = -0.8`,
		summary: "Invalid Parallel Efficiency", detail: []string{`parallel_efficiency must be greater than 0 and at most 1.5; got -0.8.`},
	},
	"recommendation/parallel_efficiency above the maximum": {
		config: rec(`workload = "htc"`, `parallel_efficiency = 1.6`), attr: "parallel_efficiency", with: recAddr, line: `parallel_efficiency = 1.6`,
		summary: "Invalid Parallel Efficiency", detail: []string{`parallel_efficiency must be greater than 0 and at most 1.5; got 1.6.`},
	},
	"recommendation/parallel_efficiency as a percentage": {
		config: rec(`workload = "hpc"`, `cores = 256`, `parallel_efficiency = 85`), attr: "parallel_efficiency", with: recAddr, line: `parallel_efficiency = 85`,
		summary: "Invalid Parallel Efficiency", detail: []string{`parallel_efficiency must be greater than 0 and at most 1.5; got 85.`},
	},
	"recommendation/parallel_efficiency on training": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `parallel_efficiency = 0.8`), attr: "parallel_efficiency", with: recAddr, line: `parallel_efficiency = 0.8`,
		summary: "Argument Not Used By Workload", detail: []string{`parallel_efficiency applies to the hpc and htc workloads, not to workload "training". Remove parallel_efficiency, or set workload to "hpc", "htc".`},
	},
	"recommendation/license_cost_per_core_hour negative": {
		config: rec(`workload = "hpc"`, `cores = 256`, `license_cost_per_core_hour = -0.5`), attr: "license_cost_per_core_hour", with: recAddr, line: `license_cost_per_core_hour = -0.5`,
		summary: "Invalid License Cost", detail: []string{`license_cost_per_core_hour must be at least 0 and at most 1,000; got -0.5.`},
	},
	"recommendation/license_cost_per_core_hour on inference": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `license_cost_per_core_hour = 2`), attr: "license_cost_per_core_hour", with: recAddr, line: `license_cost_per_core_hour = 2`,
		summary: "Argument Not Used By Workload", detail: []string{`license_cost_per_core_hour applies to the hpc and htc workloads, not to workload "inference".`},
	},
	"recommendation/reference_run on a GPU size": {
		config: rec(`workload = "hpc"`, `cores = 256`, `reference_run = { vm_size = "Standard_ND96isr_H100_v5", nodes = 1, hours = 3 }`), attr: "vm_size", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Reference Run Not On An HPC Or CPU Size", detail: []string{`reference_run.vm_size must be an HPC or CPU size`, `Standard_ND96isr_H100_v5 is a GPU size.`},
	},
	"recommendation/reference_run unknown size": {
		config: rec(`workload = "hpc"`, `reference_run = { vm_size = "Standard_HB120rs_v9", nodes = 1, hours = 3 }`), attr: "vm_size", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Unknown VM Size", detail: []string{`Standard_HB120rs_v9`, `Did you mean one of:`, `reference_run.vm_size names the size the run was measured on`},
	},
	"recommendation/reference_run zero hours": {
		config: rec(`workload = "hpc"`, `reference_run = { vm_size = "Standard_HB120rs_v3", nodes = 2, hours = 0 }`), attr: "hours", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Invalid Reference Run", detail: []string{`reference_run.hours must be greater than 0 and at most 87,600; got 0.`},
	},
	"recommendation/reference_run zero nodes": {
		config: rec(`workload = "htc"`, `reference_run = { vm_size = "Standard_HB120rs_v3", nodes = 0, hours = 5 }`), attr: "nodes", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Invalid Reference Run", detail: []string{`reference_run.nodes must be at least 1 and at most 1,000; got 0.`},
	},
	"recommendation/reference_run more cores than its VMs": {
		config: rec(`workload = "hpc"`, `reference_run = { vm_size = "Standard_HB120-16rs_v3", nodes = 2, hours = 5, cores = 64 }`), attr: "cores", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Reference Run Cores Do Not Fit", detail: []string{`reference_run.cores (64) must be between reference_run.nodes (2) and the vCPUs of those VMs (2 × 16 = 32)`},
	},
	"recommendation/reference_run without hours": {
		config: rec(`workload = "hpc"`, `reference_run = { vm_size = "Standard_HB120rs_v3", nodes = 2 }`), attr: "reference_run", line: `reference_run = { vm_size = "Standard_HB120rs_v3", nodes = 2 }`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "reference_run": attribute "hours" is required.`},
	},
	"recommendation/reference_run on a GPU workload": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `reference_run = { vm_size = "Standard_HB120rs_v3", nodes = 1, hours = 5 }`), attr: "reference_run", with: recAddr, line: `reference_run = { vm_size = "Standard_HB120rs_v3", nodes = 1, hours = 5 }`,
		summary: "Argument Not Used By Workload", detail: []string{`reference_run applies to the hpc and htc workloads, not to workload "training".`},
	},
	"recommendation/hpc_bound on inference": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `hpc_bound = "compute"`), attr: "hpc_bound", with: recAddr, line: `hpc_bound = "compute"`,
		summary: "Argument Not Used By Workload", detail: []string{`hpc_bound applies to the hpc and htc workloads, not to workload "inference". Remove hpc_bound, or set workload to "hpc", "htc".`},
	},
	"recommendation/model.parameters_billion zero": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 0 }`), attr: "parameters_billion", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Invalid Parameter Count", detail: []string{`model.parameters_billion must be greater than 0 and at most 100,000; got 0.`},
	},
	"recommendation/model.parameters_billion too large": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7000000 }`), attr: "parameters_billion", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Invalid Parameter Count", detail: []string{`model.parameters_billion must be greater than 0 and at most 100,000; got 7000000.`},
	},
	"recommendation/model.precision unknown enum": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7, precision = "fp2" }`), attr: "model.precision", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute model.precision value must be one of:`, `got: "fp2"`},
	},
	"recommendation/model.precision in upper case": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7, precision = "BF16" }`), attr: "model.precision", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute model.precision value must be one of:`, `got: "BF16". Did you mean "bf16"? Values are case-sensitive.`},
	},
	"recommendation/model.class unknown enum": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7, class = "huge" }`), attr: "model.class", with: recAddr, line: `data "hpcsku_recommendation" "x" {`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute model.class value must be one of:`, `got: "huge"`},
	},
	"recommendation/gpus fractional": {
		config: rec(`workload = "training"`, `gpus = 1.5`), attr: "gpus", with: recAddr, line: `gpus = 1.5`,
		summary: "Configuration Read Error", detail: []string{`is not an integer`},
	},
	"recommendation/gpus out of range": {
		config: rec(`workload = "training"`, `gpus = 1000000`), attr: "gpus", with: recAddr, line: `gpus = 1000000`,
		summary: "Invalid GPU Count", detail: []string{`gpus must be at least 1 and at most 100,000; got 1000000.`},
	},
	"recommendation/nodes zero": {
		config: rec(`workload = "training"`, `nodes = 0`), attr: "nodes", with: recAddr, line: `nodes = 0`,
		summary: "Invalid Node Count", detail: []string{`nodes must be at least 1 and at most 1,000; got 0.`},
	},
	"recommendation/cores negative": {
		config: rec(`workload = "hpc"`, `cores = -64`), attr: "cores", with: recAddr, line: `cores = -64`,
		summary: "Invalid Core Count", detail: []string{`cores must be at least 1 and at most 10,000,000; got -64.`},
	},
	"recommendation/total_memory_gib zero": {
		config: rec(`workload = "hpc"`, `hpc_bound = "memory_capacity"`, `total_memory_gib = 0`), attr: "total_memory_gib", with: recAddr, line: `total_memory_gib = 0`,
		summary: "Invalid Total Memory", detail: []string{`total_memory_gib must be greater than 0 and at most 10,485,760; got 0.`},
	},
	"recommendation/total_memory_gib negative": {
		config: rec(`workload = "htc"`, `total_memory_gib = -512`), attr: "total_memory_gib", with: recAddr, line: `total_memory_gib = -512`,
		summary: "Invalid Total Memory", detail: []string{`total_memory_gib must be greater than 0 and at most 10,485,760; got -512.`},
	},
	"recommendation/total_memory_gib on inference": {
		config: rec(`workload = "inference"`, `model = { parameters_billion = 7 }`, `total_memory_gib = 64`), attr: "total_memory_gib", with: recAddr, line: `total_memory_gib = 64`,
		summary: "Argument Not Used By Workload", detail: []string{`total_memory_gib applies to the hpc and htc workloads (the memory of a distributed job), not to workload "inference". Remove total_memory_gib, or set workload to "hpc", "htc".`},
	},
	"recommendation/min_memory_gib negative": {
		config: rec(`workload = "hpc"`, `min_memory_gib = -1`), attr: "min_memory_gib", with: recAddr, line: `min_memory_gib = -1`,
		summary: "Invalid Minimum Memory", detail: []string{`min_memory_gib must be greater than 0; got -1.`},
	},
	"recommendation/gpu_memory_gib wrong type": {
		config: rec(`workload = "training"`, `gpu_memory_gib = "80GB"`), attr: "gpu_memory_gib", line: `gpu_memory_gib = "80GB"`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "gpu_memory_gib": a number is required.`},
	},
	"recommendation/interconnect unknown enum": {
		config: rec(`workload = "training"`, `interconnect = "ethernet"`), attr: "interconnect", with: recAddr, line: `interconnect = "ethernet"`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute interconnect value must be one of:`, `got: "ethernet"`},
	},
	"recommendation/target unknown enum": {
		config: rec(`workload = "training"`, `target = "ecs"`), attr: "target", with: recAddr, line: `target = "ecs"`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute target value must be one of:`, `got: "ecs"`},
	},
	"recommendation/target near miss": {
		config: rec(`workload = "training"`, `target = "vmms"`), attr: "target", with: recAddr, line: `target = "vmms"`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute target value must be one of:`, `got: "vmms". Did you mean "vmss"?`},
	},
	"recommendation/workload in upper case": {
		config: rec(`workload = "HPC"`), attr: "workload", with: recAddr, line: `workload = "HPC"`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute workload value must be one of:`, `got: "HPC". Did you mean "hpc"? Values are case-sensitive.`},
	},
	"recommendation/optimize_for unknown enum": {
		config: rec(`workload = "training"`, `optimize_for = "speed"`), attr: "optimize_for", with: recAddr, line: `optimize_for = "speed"`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute optimize_for value must be one of:`, `got: "speed"`},
	},
	"recommendation/cuda_version malformed": {
		config: rec(`workload = "training"`, `cuda_version = "12"`), attr: "cuda_version", with: recAddr, line: `cuda_version = "12"`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute cuda_version must be a version such as "12.4" or "13.0", got: 12`},
	},
	"recommendation/min_compute_capability malformed": {
		config: rec(`workload = "training"`, `min_compute_capability = "sm_90"`), attr: "min_compute_capability", with: recAddr, line: `min_compute_capability = "sm_90"`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute min_compute_capability must be a compute capability such as "7.0"`},
	},
	"recommendation/region empty": {
		config: rec(`workload = "hpc"`, `region = ""`), attr: "region", with: recAddr, line: `region = ""`,
		summary: "Invalid Attribute Value Length", detail: []string{`Attribute region string length must be at least 1, got: 0`},
	},
	"recommendation/region unknown": {
		config: rec(`workload = "hpc"`, `region = "moon-1"`), attr: "region", with: recAddr, line: `region = "moon-1"`,
		summary: "Unknown Region", detail: []string{`The region "moon-1" is not in the catalog (version `},
	},
	"recommendation/region misspelled": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `region = "eastus3"`), attr: "region", with: recAddr, line: `region = "eastus3"`,
		summary: "Unknown Region", detail: []string{`The region "eastus3" is not in the catalog (version `, `Did you mean one of: eastus, eastus2,`},
	},
	"recommendation/max_results out of range": {
		config: rec(`workload = "hpc"`, `max_results = 0`), attr: "max_results", with: recAddr, line: `max_results = 0`,
		summary: "Invalid Maximum Results", detail: []string{`max_results must be at least 1 and at most 50; got 0.`},
	},
	"recommendation/min_lifetime_months out of range": {
		config: rec(`workload = "hpc"`, `min_lifetime_months = 241`), attr: "min_lifetime_months", with: recAddr, line: `min_lifetime_months = 241`,
		summary: "Invalid Minimum Lifetime", detail: []string{`min_lifetime_months must be at least 0 and at most 240; got 241.`},
	},
	"recommendation/spot wrong type": {
		config: rec(`workload = "inference"`, `spot = "yes"`), attr: "spot", line: `spot = "yes"`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "spot": a bool is required.`},
	},
	"recommendation/gpu_models empty list": {
		config: rec(`workload = "training"`, `gpu_models = []`), attr: "gpu_models", with: recAddr, line: `gpu_models = []`,
		summary: "Invalid Attribute Value", detail: []string{`Attribute gpu_models list must contain at least 1 elements, got: 0`},
	},
	"recommendation/gpu_models empty string": {
		config: rec(`workload = "training"`, `gpu_models = ["", "h100-sxm-80gb"]`), attr: "gpu_models", with: recAddr, line: `gpu_models = ["", "h100-sxm-80gb"]`,
		summary: "Invalid Attribute Value Length", detail: []string{`Attribute gpu_models[0] string length must be at least 1, got: 0`},
	},
	"recommendation/prefer empty entry": {
		config: rec(`workload = "training"`, `prefer = ["Standard_ND96isr_H100_v5", ""]`), attr: "prefer", with: recAddr, line: `prefer = ["Standard_ND96isr_H100_v5", ""]`,
		summary: "Empty Preferred Size", detail: []string{`prefer entries must be VM size names such as "Standard_NC24ads_A100_v4"`},
	},
	"recommendation/prefer duplicates": {
		config: rec(`workload = "training"`, `prefer = ["Standard_ND96isr_H100_v5", "Standard_ND96isr_H100_v5"]`), attr: "prefer", with: recAddr,
		line:    `prefer = ["Standard_ND96isr_H100_v5", "Standard_ND96isr_H100_v5"]`,
		summary: "Duplicate List Value", detail: []string{`This attribute contains duplicate values of: "Standard_ND96isr_H100_v5"`},
	},
	"recommendation/max_price_per_hour without region": {
		config: rec(`workload = "hpc"`, `max_price_per_hour = 5`), attr: "max_price_per_hour", with: recAddr, line: `max_price_per_hour = 5`,
		summary: "Invalid Attribute Combination", detail: []string{`Attribute "region" or "regions" must be specified when "max_price_per_hour" is specified`},
	},
	"recommendation/max_total_price_per_hour without region": {
		config: rec(`workload = "hpc"`, `max_total_price_per_hour = 50`), attr: "max_total_price_per_hour", with: recAddr, line: `max_total_price_per_hour = 50`,
		summary: "Invalid Attribute Combination", detail: []string{`Attribute "region" or "regions" must be specified when "max_total_price_per_hour" is specified`},
	},
	"recommendation/regions with region": {
		config: rec(`workload = "hpc"`, `region = "eastus"`, `regions = ["westus2"]`), attr: "regions", with: recAddr, line: `regions = ["westus2"]`,
		summary: "Invalid Attribute Combination", detail: []string{`Attribute "region" cannot be specified when "regions" is specified`},
	},
	"recommendation/regions empty list": {
		config: rec(`workload = "hpc"`, `regions = []`), attr: "regions", with: recAddr, line: `regions = []`,
		summary: "Invalid Attribute Value", detail: []string{`Attribute regions list must contain at least 1 elements, got: 0`},
	},
	"recommendation/regions empty string": {
		config: rec(`workload = "hpc"`, `regions = ["eastus", ""]`), attr: "regions", with: recAddr, line: `regions = ["eastus", ""]`,
		summary: "Invalid Attribute Value Length", detail: []string{`Attribute regions[1] string length must be at least 1, got: 0`},
	},
	"recommendation/regions duplicates": {
		config: rec(`workload = "hpc"`, `regions = ["eastus", "eastus"]`), attr: "regions", with: recAddr, line: `regions = ["eastus", "eastus"]`,
		summary: "Duplicate List Value", detail: []string{`This attribute contains duplicate values of: "eastus"`},
	},
	"recommendation/regions misspelled": {
		config: rec(`workload = "hpc"`, `regions = ["eastus", "westeurop"]`), attr: "regions", with: recAddr, line: `regions = ["eastus", "westeurop"]`,
		summary: "Unknown Region", detail: []string{`The region "westeurop" is not in the catalog (version `, `Did you mean one of: westeurope`},
	},
	"recommendation/regions wrong type": {
		config: rec(`workload = "hpc"`, `regions = "eastus"`), attr: "regions", line: `regions = "eastus"`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "regions": list of string required.`},
	},
	"recommendation/max_total_price_per_hour zero": {
		config: rec(`workload = "hpc"`, `region = "eastus"`, `max_total_price_per_hour = 0`), attr: "max_total_price_per_hour", with: recAddr, line: `max_total_price_per_hour = 0`,
		summary: "Invalid Maximum Total Price", detail: []string{`max_total_price_per_hour must be greater than 0; got 0.`},
	},
	"recommendation/conflict gpu_vendor amd with cuda_version": {
		config: rec(`workload = "training"`, `model = { parameters_billion = 7 }`, `gpu_vendor = "amd"`, `cuda_version = "12.0"`), attr: "cuda_version", with: recAddr, line: `cuda_version = "12.0"`,
		summary: "CUDA Version With AMD GPUs", detail: []string{`cuda_version selects NVIDIA GPUs`, `Remove cuda_version, or set gpu_vendor to "nvidia" or "any".`},
	},
	"recommendation/conflict GPU setting on an hpc workload": {
		config: rec(`workload = "hpc"`, `cores = 256`, `gpus = 8`), attr: "gpus", with: recAddr, line: `gpus = 8`,
		summary: "GPU Setting On A CPU Workload", detail: []string{`gpus is a GPU setting, but workload "hpc" runs on CPU sizes.`},
	},
	"recommendation/gpu_models one misspelled": {
		config: rec(`workload = "training"`, `gpu_models = ["a100-sxm-80gb", "h100-sxm-8gb"]`), attr: "gpu_models", with: recAddr, line: `gpu_models = ["a100-sxm-80gb", "h100-sxm-8gb"]`,
		summary: "Unknown GPU Model", detail: []string{`The GPU model "h100-sxm-8gb" is not in the catalog (version `, `Did you mean one of: h100-sxm-80gb`},
	},
	"recommendation/huge list of unknown gpu_models": {
		config: rec(`workload = "training"`, `gpu_models = `+hugeList("gpu-")), attr: "gpu_models", with: recAddr, line: `gpu_models = ` + hugeList("gpu-"),
		summary: "Unknown GPU Model", detail: []string{`4995 more diagnostics like the 5 above ("Unknown GPU Model") for gpu_models were left out.`},
	},

	// hpcsku_catalog
	"catalog/families unknown": {
		config: cat(`families = ["NZ"]`), attr: "families", with: catAddr, line: `families = ["NZ"]`,
		summary: "Unknown Family", detail: []string{`The family "NZ" is not in the catalog (version `, `Did you mean one of: NC, ND, NG? Use one of: E, F, H,`},
	},
	"catalog/families empty string": {
		config: cat(`families = [""]`), attr: "families", with: catAddr, line: `families = [""]`,
		summary: "Invalid Attribute Value Length", detail: []string{`Attribute families[0] string length must be at least 1, got: 0`},
	},
	"catalog/series duplicates": {
		config: cat(`series = ["ND-H100-v5", "ND-H100-v5"]`), attr: "series", with: catAddr, line: `series = ["ND-H100-v5", "ND-H100-v5"]`,
		summary: "Duplicate List Value", detail: []string{`This attribute contains duplicate values of: "ND-H100-v5"`},
	},
	"catalog/categories unknown enum": {
		config: cat(`categories = ["tpu"]`), attr: "categories", with: catAddr, line: `categories = ["tpu"]`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute categories[0] value must be one of:`, `got: "tpu"`},
	},
	"catalog/gpu_vendor unknown enum": {
		config: cat(`gpu_vendor = "intel"`), attr: "gpu_vendor", with: catAddr, line: `gpu_vendor = "intel"`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute gpu_vendor value must be one of:`, `got: "intel"`},
	},
	"catalog/gpu_models unknown": {
		config: cat(`gpu_models = ["B100"]`), attr: "gpu_models", with: catAddr, line: `gpu_models = ["B100"]`,
		summary: "Unknown GPU Model", detail: []string{`The GPU model "B100" is not in the catalog (version `, `h100-sxm-80gb`},
	},
	"catalog/min_gpus negative": {
		config: cat(`min_gpus = -1`), attr: "min_gpus", with: catAddr, line: `min_gpus = -1`,
		summary: "Invalid Attribute Value", detail: []string{`Attribute min_gpus value must be at least 0.000000, got: -1.000000`},
	},
	"catalog/min_gpu_memory_gib wrong type": {
		config: cat(`min_gpu_memory_gib = "lots"`), attr: "min_gpu_memory_gib", line: `min_gpu_memory_gib = "lots"`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "min_gpu_memory_gib": a number is required.`},
	},
	"catalog/rdma wrong type": {
		config: cat(`rdma = "maybe"`), attr: "rdma", line: `rdma = "maybe"`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "rdma": a bool is required.`},
	},
	"catalog/name_regex invalid": {
		config: cat(`name_regex = "Standard_(ND"`), attr: "name_regex", with: catAddr, line: `name_regex = "Standard_(ND"`,
		summary: "Invalid Regular Expression", detail: []string{`The value "Standard_(ND" is not a valid RE2 regular expression`},
	},
	"catalog/region with spaces": {
		config: cat(`region = "East US"`), attr: "region", with: catAddr, line: `region = "East US"`,
		summary: "Unknown Region", detail: []string{`The region "East US" is not in the catalog (version `, `Did you mean one of: eastus, eastus2, eastasia?`},
	},
	"catalog/region unknown at plan, invalid at apply": {
		config: cat(`region = uuid()`), attr: "region", with: catAddr, line: `region = uuid()`,
		summary: "Unknown Region", detail: []string{`is not in the catalog (version `},
	},
	"catalog/huge list of unknown families": {
		config: cat(`families = ` + hugeList("F")), attr: "families", with: catAddr, line: `families = ` + hugeList("F"),
		summary: "Unknown Family", detail: []string{`4995 more diagnostics like the 5 above ("Unknown Family") for families were left out.`},
	},

	// hpcsku_sku
	"sku/name missing": {
		config: sku(`region = "eastus"`), attr: "name", line: `data "hpcsku_sku" "x" {`,
		summary: "Missing required argument", detail: []string{`The argument "name" is required`},
	},
	"sku/name empty": {
		config: sku(`name = ""`), attr: "name", with: skuAddr, line: `name = ""`,
		summary: "Missing Name", detail: []string{`A size name is required`, `Names look like Standard_ND96isr_H100_v5.`},
	},
	"sku/name blank": {
		config: sku(`name = "  "`), attr: "name", with: skuAddr, line: `name = "  "`,
		summary: "Missing Name", detail: []string{`A size name is required`, `Names look like Standard_ND96isr_H100_v5.`},
	},
	"sku/name wrong type": {
		config: sku(`name = ["Standard_NC24rs_v3"]`), attr: "name", line: `name = ["Standard_NC24rs_v3"]`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "name": string required.`},
	},
	"sku/name unknown": {
		config: sku(`name = "Standard_ND96isr_H100_v6"`), attr: "name", with: skuAddr, line: `name = "Standard_ND96isr_H100_v6"`,
		summary: "Unknown VM Size", detail: []string{`The size "Standard_ND96isr_H100_v6" is not in the catalog`, `Did you mean one of: Standard_ND96isr_H100_v5`},
	},
	"sku/name unknown at plan, invalid at apply": {
		config: sku(`name = "Standard_${uuid()}"`), attr: "name", with: skuAddr, line: `name = "Standard_${uuid()}"`,
		summary: "Unknown VM Size", detail: []string{`is not in the catalog`, `Did you mean one of:`},
	},
	"sku/region unknown": {
		config: sku(`name = "Standard_NC24rs_v3"`, `region = "moon-1"`), attr: "region", with: skuAddr, line: `region = "moon-1"`,
		summary: "Unknown Region", detail: []string{`The region "moon-1" is not in the catalog (version `, `eastus,`},
	},

	// hpcsku_models
	"models/kinds unknown enum": {
		config: models(`kinds = ["llm"]`), attr: "kinds", with: modelsAddr, line: `kinds = ["llm"]`,
		summary: "Invalid Attribute Value Match", detail: []string{`Attribute kinds[0] value must be one of:`, `"diffusion" "encoder" "generative"`, `"moe" "speech" "vision"`, `got: "llm"`},
	},
	"models/kinds empty": {
		config: models(`kinds = []`), attr: "kinds", with: modelsAddr, line: `kinds = []`,
		summary: "Invalid Attribute Value", detail: []string{`Attribute kinds list must contain at least 1 elements, got: 0`},
	},
	"models/kinds duplicates": {
		config: models(`kinds = ["moe", "moe"]`), attr: "kinds", with: modelsAddr, line: `kinds = ["moe", "moe"]`,
		summary: "Duplicate List Value", detail: []string{`This attribute contains duplicate values of: "moe"`},
	},
	"models/kinds wrong type": {
		config: models(`kinds = "moe"`), attr: "kinds", line: `kinds = "moe"`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "kinds": list of string required.`},
	},
	"models/name_regex invalid": {
		config: models(`name_regex = "llama(3"`), attr: "name_regex", with: modelsAddr, line: `name_regex = "llama(3"`,
		summary: "Invalid Regular Expression", detail: []string{`The value "llama(3" is not a valid RE2 regular expression`},
	},
	"models/name_regex unknown at plan, invalid at apply": {
		config: models(`name_regex = "${uuid()}("`), attr: "name_regex", with: modelsAddr, line: `name_regex = "${uuid()}("`,
		summary: "Invalid Regular Expression", detail: []string{`is not a valid RE2 regular expression`},
	},

	// provider settings (those that name a file are in badFileInputs)
	"provider/as_of not a date": {
		config: prov(`as_of = "yesterday"`), attr: "as_of", with: providerAddr, line: `as_of = "yesterday"`,
		summary: "Invalid Date", detail: []string{`The value "yesterday" is not an RFC 3339 date.`},
	},
	"provider/as_of empty": {
		config: prov(`as_of = ""`), attr: "as_of", with: providerAddr, line: `as_of = ""`,
		summary: "Invalid Date", detail: []string{`The value "" is not an RFC 3339 date.`},
	},
	"provider/as_of out-of-range day": {
		config: prov(`as_of = "2026-02-30"`), attr: "as_of", with: providerAddr, line: `as_of = "2026-02-30"`,
		summary: "Invalid Date", detail: []string{`The value "2026-02-30" is not an RFC 3339 date.`},
	},
	"provider/as_of number": {
		config: prov(`as_of = 20260101`), attr: "as_of", with: providerAddr, line: `as_of = 20260101`,
		summary: "Invalid Date", detail: []string{`The value "20260101" is not an RFC 3339 date.`},
	},
	"provider/catalog_file empty": {
		config: prov(`catalog_file = ""`), attr: "catalog_file", with: providerAddr, line: `catalog_file = ""`,
		summary: "Invalid Attribute Value Length", detail: []string{`Attribute catalog_file string length must be at least 1, got: 0`},
	},
	"provider/catalog_file unknown at plan": {
		config: "resource \"terraform_data\" \"f\" {\n  input = \"catalog.json\"\n}\n" + prov(`catalog_file = terraform_data.f.output`),
		attr:   "catalog_file", with: providerAddr, line: `catalog_file = terraform_data.f.output`,
		summary: "Catalog File Path Unknown", detail: []string{`The catalog_file path must be known when the provider is configured.`},
	},
	"provider/usage_files empty map": {
		config: prov(`usage_files = {}`), attr: "usage_files", with: providerAddr, line: `usage_files = {}`,
		summary: "Invalid Attribute Value", detail: []string{`Attribute usage_files map must contain at least 1 elements, got: 0`},
	},
	"provider/usage_files empty path": {
		config: prov(`usage_files = { eastus = "" }`), attr: "usage_files", with: providerAddr, line: `usage_files = { eastus = "" }`,
		summary: "Invalid Attribute Value Length", detail: []string{`Attribute usage_files["eastus"] string length must be at least 1, got: 0`},
	},
	"provider/usage_files wrong type": {
		config: prov(`usage_files = "usage.json"`), attr: "usage_files", line: `usage_files = "usage.json"`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "usage_files": map of string required.`},
	},
	"recommendation/require_quota wrong type": {
		config: rec(`workload = "hpc"`, `require_quota = "yes"`), attr: "require_quota", line: `require_quota = "yes"`,
		summary: "Incorrect attribute value type", detail: []string{`Inappropriate value for attribute "require_quota": a bool is required.`},
	},

	// provider-defined functions (Terraform 1.8 and later)
	"function/sku unknown name": {
		config: fn(`provider::hpcsku::sku("Standard_Nope_v9")`), attr: "name", call: "provider::hpcsku::sku(name)", line: `value = provider::hpcsku::sku("Standard_Nope_v9")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "name" parameter: Unknown VM Size: The size "Standard_Nope_v9" is not in the catalog`},
	},
	"function/sku empty name": {
		config: fn(`provider::hpcsku::sku("")`), attr: "name", call: "provider::hpcsku::sku(name)", line: `value = provider::hpcsku::sku("")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "name" parameter: Missing Name: A size name is required`, `Names look like Standard_ND96isr_H100_v5.`},
	},
	"function/is_retired null name": {
		config: fn(`provider::hpcsku::is_retired(null)`), attr: "name", call: "provider::hpcsku::is_retired(name)", line: `value = provider::hpcsku::is_retired(null)`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "name" parameter: argument must not be null.`},
	},
	"function/is_retired name unknown at plan, invalid at apply": {
		config: fn(`provider::hpcsku::is_retired("Standard_${uuid()}")`), attr: "name", call: "provider::hpcsku::is_retired(name)",
		line:    `value = provider::hpcsku::is_retired("Standard_${uuid()}")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "name" parameter: Unknown VM Size:`},
	},
	"function/retires_within negative months": {
		config: fn(`provider::hpcsku::retires_within("Standard_NC24rs_v3", -1)`), attr: "months", call: "provider::hpcsku::retires_within(name, months)",
		line:    `value = provider::hpcsku::retires_within("Standard_NC24rs_v3", -1)`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "months" parameter:`, `months must be at least 0 and at most 1,200; got -1.`},
	},
	"function/retires_within fractional months": {
		config: fn(`provider::hpcsku::retires_within("Standard_NC24rs_v3", 1.5)`), attr: "months", call: "provider::hpcsku::retires_within(name, months)",
		line:    `value = provider::hpcsku::retires_within("Standard_NC24rs_v3", 1.5)`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "months" parameter:`, `months must be a whole number; got 1.5.`},
	},
	"function/gpu_memory_gib zero parameters": {
		config: fn(`provider::hpcsku::gpu_memory_gib(0, "bf16", "inference")`), attr: "parameters_billion",
		call: gpuMemoryCall, line: `value = provider::hpcsku::gpu_memory_gib(0, "bf16", "inference")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "parameters_billion" parameter:`, `greater than 0`},
	},
	"function/gpu_memory_gib unknown precision": {
		config: fn(`provider::hpcsku::gpu_memory_gib(7, "fp2", "inference")`), attr: "precision",
		call: gpuMemoryCall, line: `value = provider::hpcsku::gpu_memory_gib(7, "fp2", "inference")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "precision" parameter:`, `got: "fp2".`},
	},
	"function/gpu_memory_gib workload without a model": {
		config: fn(`provider::hpcsku::gpu_memory_gib(7, "bf16", "hpc")`), attr: "workload",
		call: gpuMemoryCall, line: `value = provider::hpcsku::gpu_memory_gib(7, "bf16", "hpc")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "workload" parameter:`, `["training" "fine_tuning" "inference"], got: "hpc".`},
	},
	"function/gpu_memory_gib two options objects": {
		config: fn(`provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", { context_tokens = 8192 }, { concurrent_requests = 4 })`), attr: "options",
		call: gpuMemoryCall, line: `value = provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", { context_tokens = 8192 }, { concurrent_requests = 4 })`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "options" parameter: Too Many Options: gpu_memory_gib takes at most one options object after workload; got 2.`},
	},
	"function/gpu_memory_gib unknown option": {
		config: fn(`provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", { contxt_tokens = 8192 })`), attr: "options",
		call: gpuMemoryCall, line: `value = provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", { contxt_tokens = 8192 })`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "options" parameter: Unknown Option: options has no key "contxt_tokens". The keys are "model",`},
	},
	"function/gpu_memory_gib option of the wrong type": {
		config: fn(`provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", { concurrent_requests = [8] })`), attr: "options",
		call: gpuMemoryCall, line: `value = provider::hpcsku::gpu_memory_gib(7, "bf16", "inference", { concurrent_requests = [8] })`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "options" parameter: Invalid Option Value: options.concurrent_requests must be a number; got a tuple.`},
	},
	"function/gpu_memory_gib option out of range": {
		config: fn(`provider::hpcsku::gpu_memory_gib(7, "bf16", "training", { training_batch_size = 0 })`), attr: "options",
		call: gpuMemoryCall, line: `value = provider::hpcsku::gpu_memory_gib(7, "bf16", "training", { training_batch_size = 0 })`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "options" parameter: Invalid Option Value: options.training_batch_size must be at least 1 and at most 100,000; got 0.`},
	},
	"function/gpu_memory_gib unknown model": {
		config: fn(`provider::hpcsku::gpu_memory_gib(null, null, "inference", { model = "mistral-8b" })`), attr: "options",
		call: gpuMemoryCall, line: `value = provider::hpcsku::gpu_memory_gib(null, null, "inference", { model = "mistral-8b" })`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "options" parameter: Unknown Model: The model "mistral-8b" is not in the catalog`, `Did you mean one of:`},
	},
	"function/gpu_memory_gib option the workload does not use": {
		config: fn(`provider::hpcsku::gpu_memory_gib(7, "bf16", "training", { concurrent_requests = 8 })`), attr: "options",
		call: gpuMemoryCall, line: `value = provider::hpcsku::gpu_memory_gib(7, "bf16", "training", { concurrent_requests = 8 })`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "options" parameter: Argument Not Used By Workload: concurrent_requests applies to serving a model, not to workload "training".`},
	},
	"function/gpu_memory_gib int4 training": {
		config: fn(`provider::hpcsku::gpu_memory_gib(7, "int4", "training")`), attr: "precision",
		call: gpuMemoryCall, line: `value = provider::hpcsku::gpu_memory_gib(7, "int4", "training")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "precision" parameter: Precision Cannot Train: Training updates every weight, which int4 cannot hold`},
	},
	"function/estimate_training_hours zero active parameters": {
		config: fn(`provider::hpcsku::estimate_training_hours(0, 2000, "Standard_ND96asr_v4", 12, "bf16")`), attr: "active_parameters_billion",
		call: trainingHoursCall, line: `value = provider::hpcsku::estimate_training_hours(0, 2000, "Standard_ND96asr_v4", 12, "bf16")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "active_parameters_billion" parameter: Invalid Parameter Count: active_parameters_billion must be greater than 0 and at most 100,000; got 0.`},
	},
	"function/estimate_training_hours tokens above the maximum": {
		config: fn(`provider::hpcsku::estimate_training_hours(7, 2000000, "Standard_ND96asr_v4", 12, "bf16")`), attr: "tokens_billion",
		call: trainingHoursCall, line: `value = provider::hpcsku::estimate_training_hours(7, 2000000, "Standard_ND96asr_v4", 12, "bf16")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "tokens_billion" parameter: Invalid Token Count: tokens_billion must be greater than 0 and at most 1,000,000; got 2000000.`},
	},
	"function/estimate_training_hours tokens wrong type": {
		config: fn(`provider::hpcsku::estimate_training_hours(7, "2T", "Standard_ND96asr_v4", 12, "bf16")`), attr: "tokens_billion",
		call: trainingHoursCall, line: `value = provider::hpcsku::estimate_training_hours(7, "2T", "Standard_ND96asr_v4", 12, "bf16")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "tokens_billion" parameter: a number is required.`},
	},
	"function/estimate_training_hours unknown size": {
		config: fn(`provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v5", 12, "bf16")`), attr: "vm_size",
		call: trainingHoursCall, line: `value = provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v5", 12, "bf16")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "vm_size" parameter: Unknown VM Size: The size "Standard_ND96asr_v5" is not in the catalog`, `Did you mean one of:`},
	},
	"function/estimate_training_hours size without a GPU": {
		config: fn(`provider::hpcsku::estimate_training_hours(7, 2000, "Standard_HB120rs_v3", 12, "bf16")`), attr: "vm_size",
		call: trainingHoursCall, line: `value = provider::hpcsku::estimate_training_hours(7, 2000, "Standard_HB120rs_v3", 12, "bf16")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "vm_size" parameter: Not A GPU Size: Standard_HB120rs_v3 has no GPU; the training estimate is for GPU sizes.`},
	},
	"function/estimate_training_hours null size": {
		config: fn(`provider::hpcsku::estimate_training_hours(7, 2000, null, 12, "bf16")`), attr: "vm_size",
		call: trainingHoursCall, line: `value = provider::hpcsku::estimate_training_hours(7, 2000, null, 12, "bf16")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "vm_size" parameter: argument must not be null.`},
	},
	"function/estimate_training_hours fractional nodes": {
		config: fn(`provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 2.5, "bf16")`), attr: "nodes",
		call: trainingHoursCall, line: `value = provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 2.5, "bf16")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "nodes" parameter: Invalid Node Count: nodes must be a whole number; got 2.5.`},
	},
	"function/estimate_training_hours zero nodes": {
		config: fn(`provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 0, "bf16")`), attr: "nodes",
		call: trainingHoursCall, line: `value = provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 0, "bf16")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "nodes" parameter: Invalid Node Count: nodes must be at least 1 and at most 1,000; got 0.`},
	},
	"function/estimate_training_hours int4 cannot train": {
		config: fn(`provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 12, "int4")`), attr: "precision",
		call: trainingHoursCall, line: `value = provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 12, "int4")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "precision" parameter: Precision Cannot Train: Training runs in bf16, fp16, fp8, tf32 or fp32, not int4.`},
	},
	"function/estimate_training_hours precision the GPU lacks": {
		config: fn(`provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND40rs_v2", 12, "bf16")`), attr: "precision",
		call: trainingHoursCall, line: `value = provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND40rs_v2", 12, "bf16")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "precision" parameter: No Throughput Figure: The catalog has no native bf16 throughput`, `choose a precision it runs (fp16) or another size.`},
	},
	"function/estimate_training_hours unknown precision": {
		config: fn(`provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 12, "bf17")`), attr: "precision",
		call: trainingHoursCall, line: `value = provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96asr_v4", 12, "bf17")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "precision" parameter: Invalid Parameter Value Match: value must be one of:`, `got: "bf17"; did you mean "bf16".`},
	},
	"function/gpu_memory_gib precision in upper case": {
		config: fn(`provider::hpcsku::gpu_memory_gib(7, "BF16", "inference")`), attr: "precision",
		call: gpuMemoryCall, line: `value = provider::hpcsku::gpu_memory_gib(7, "BF16", "inference")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "precision" parameter: Invalid Parameter Value Match:`, `got: "BF16"; did you mean "bf16".`},
	},
	"function/estimate_training_hours size unknown at plan, invalid at apply": {
		config: fn(`provider::hpcsku::estimate_training_hours(7, 2000, "Standard_${uuid()}", 12, "bf16")`), attr: "vm_size",
		call: trainingHoursCall, line: `value = provider::hpcsku::estimate_training_hours(7, 2000, "Standard_${uuid()}", 12, "bf16")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "vm_size" parameter: Unknown VM Size:`},
	},
	"function/gpu_memory_gib wrong type": {
		config: fn(`provider::hpcsku::gpu_memory_gib("seven", "bf16", "inference")`), attr: "parameters_billion",
		call: gpuMemoryCall, line: `value = provider::hpcsku::gpu_memory_gib("seven", "bf16", "inference")`,
		summary: "Invalid function argument", detail: []string{`Invalid value for "parameters_billion" parameter: a number is required.`},
	},
}

// badFileInputs are the cases of TestBadInputMatrix whose settings name a
// file or directory under dir, its test data: Terraform runs each step in
// a directory of its own, so the paths are absolute.
func badFileInputs(dir string) map[string]badInput {
	file := func(name string) string { return filepath.ToSlash(filepath.Join(dir, name)) }
	return map[string]badInput{
		"provider/catalog_file missing": {
			config: prov(`catalog_file = "` + file("missing.json") + `"`), attr: "catalog_file", with: providerAddr, line: `catalog_file = "` + file("missing.json") + `"`,
			summary: "Cannot Read Catalog File", detail: []string{`Problem: the catalog file does not exist.`},
		},
		"provider/catalog_file is a directory": {
			config: prov(`catalog_file = "` + dir + `"`), attr: "catalog_file", with: providerAddr, line: `catalog_file = "` + dir + `"`,
			summary: "Cannot Read Catalog File", detail: []string{`Problem: the catalog file is a directory; give the path of a file.`},
		},
		"provider/catalog_file wrong type in an entry": {
			config: prov(`catalog_file = "` + file("catalog_wrong_type.json") + `"`), attr: "catalog_file", with: providerAddr, line: `catalog_file = "` + file("catalog_wrong_type.json") + `"`,
			summary: "Invalid Catalog File", detail: []string{`Entry: skus[0] (Standard_NP10s)`, `Field: vcpus`, `Problem: expected a whole number, got a string.`},
		},
		"provider/availability_file not JSON": {
			config: prov(`availability_file = "` + file("availability_not_json.json") + `"`), attr: "availability_file", with: providerAddr,
			line:    `availability_file = "` + file("availability_not_json.json") + `"`,
			summary: "Invalid Availability File", detail: []string{`Problem: the file is not JSON`, `az vm list-skus`},
		},
		"provider/usage_files list-skus output": {
			config: prov(`usage_files = { eastus = "` + file("usage_list_skus.json") + `" }`), attr: "usage_files", with: providerAddr, line: `usage_files = { eastus = "` + file("usage_list_skus.json") + `" }`,
			summary: "Invalid Usage File", detail: []string{`The usage file ` + file("usage_list_skus.json") + ` of eastus could not be used.`, `Entry: entry 1`, `Field: name`, `Problem: expected an object, got a string.`, `az vm list-usage --location eastus -o json`},
		},
		"provider/usage_files table output": {
			config: prov(`usage_files = { eastus = "` + file("usage_table.txt") + `" }`), attr: "usage_files", with: providerAddr, line: `usage_files = { eastus = "` + file("usage_table.txt") + `" }`,
			summary: "Invalid Usage File", detail: []string{`The usage file ` + file("usage_table.txt") + ` of eastus could not be used.`, `Problem: the file is not JSON: it must be the list of usage counters that az vm list-usage --location REGION -o json prints.`},
		},
		"provider/usage_files missing file": {
			config: prov(`usage_files = { eastus = "` + file("missing_usage.json") + `" }`), attr: "usage_files", with: providerAddr, line: `usage_files = { eastus = "` + file("missing_usage.json") + `" }`,
			summary: "Cannot Read Usage File", detail: []string{`Problem: the usage file does not exist.`},
		},
		"provider/usage_files unknown region": {
			config: prov(`usage_files = { eastus3 = "` + file("usage_list_skus.json") + `" }`), attr: "usage_files", with: providerAddr, line: `usage_files = { eastus3 = "` + file("usage_list_skus.json") + `" }`,
			summary: "Unknown Region", detail: []string{`The region "eastus3" is not in the catalog (version `, `Did you mean one of: eastus, eastus2,`, `usage_files maps each region to the file`},
		},
		"provider/prices_file bad CSV header": {
			config: prov(`prices_file = "` + file("prices_bad_header.csv") + `"`), attr: "prices_file", with: providerAddr, line: `prices_file = "` + file("prices_bad_header.csv") + `"`,
			summary: "Invalid Prices File", detail: []string{`Entry: line 1`, `the header is "location,size,price"; it must be region,vm_size,usd_per_hour`},
		},
		"provider/prices_file negative price": {
			config: prov(`prices_file = "` + file("prices_negative.csv") + `"`), attr: "prices_file", with: providerAddr, line: `prices_file = "` + file("prices_negative.csv") + `"`,
			summary: "Invalid Prices File", detail: []string{`Entry: line 2 (Standard_ND96isr_H100_v5 in eastus)`, `Field: usd_per_hour`, `-36.00 must be greater than 0`},
		},
	}
}

// TestBadInputMatrix runs every invalid configuration of every data source,
// function and provider setting through Terraform and checks the error:
// wrong types, out-of-range numbers, unknown enum values, conflicting
// settings, empty strings, values unknown until apply, unreadable or invalid
// files and huge lists. Each case is a step that must fail (plan, or apply
// for values unknown at plan time): the function calls' steps in one
// resource.UnitTest, the others' in another.
func TestBadInputMatrix(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join("testdata", t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	cases := maps.Clone(badInputs)
	for name, c := range badFileInputs(dir) {
		if _, dup := cases[name]; dup {
			t.Fatalf("%s: the case is in both badInputs and badFileInputs", name)
		}
		cases[name] = c
	}
	if len(cases) < 40 {
		t.Fatalf("the matrix has %d cases; keep at least 40", len(cases))
	}
	functions, others := map[string]errorCase{}, map[string]errorCase{}
	for name, c := range cases {
		// The table names the attribute it is about: on the line Terraform
		// shows, or in the detail.
		if !strings.Contains(c.line+strings.Join(c.detail, " "), c.attr) {
			t.Fatalf("%s: neither the line nor the detail names %q", name, c.attr)
		}
		if c.call != "" {
			functions[name] = errorCase{config: c.config, err: c.pattern().String()}
		} else {
			others[name] = errorCase{config: c.config, err: c.pattern().String()}
		}
	}
	t.Run("functions", func(t *testing.T) {
		t.Parallel()
		testErrors(t, testProviderFactories(t), functionVersionChecks, functions)
	})
	t.Run("data sources and provider", func(t *testing.T) {
		t.Parallel()
		testErrors(t, testProviderFactories(t), nil, others)
	})
}
