variable "name" {
  description = "Name of the KAITO Workspace: lowercase letters, digits and hyphens, at most 58 characters, so that the suffix -N of one Workspace per copy keeps a name within Kubernetes' 63."
  type        = string
  default     = "llm"

  validation {
    condition     = can(regex("^[a-z0-9]([-a-z0-9]{0,56}[a-z0-9])?$", var.name))
    error_message = "name must be a Kubernetes resource name of lowercase letters, digits and hyphens, at most 58 characters: a Workspace per copy adds the suffix -N (up to 5 characters) within Kubernetes' 63."
  }
}

variable "namespace" {
  description = "Namespace of the Workspace."
  type        = string
  default     = "default"
}

variable "location" {
  description = "Region of the AKS cluster, for example `eastus`. Only sizes priced there are ranked."
  type        = string
}

variable "model" {
  description = "The served model: a `name` of the catalog's model table (see `hpcsku_models`) or `parameters_billion`, and optionally `precision`."
  type = object({
    name               = optional(string)
    parameters_billion = optional(number)
    precision          = optional(string)
  })
}

variable "requests_per_second" {
  description = "Mean requests arriving per second across the service, or null for the default concurrency."
  type        = number
  default     = null
}

variable "max_time_to_first_token_ms" {
  description = "Mean time to the first token the service must meet, in milliseconds, or null."
  type        = number
  default     = null
}

variable "model_access_secret" {
  description = "Name of a Secret holding a Hugging Face token, for a preset of a gated model (Llama): `presetOptions.modelAccessSecret`. Null for open models."
  type        = string
  default     = null
}

variable "hugging_face_model" {
  description = "For a model KAITO has no preset for: the Hugging Face model the Workspace's vLLM pod serves (`--model`). Ignored when KAITO has a preset."
  type        = string
  default     = null
}

variable "vllm_image" {
  description = "Container image of the vLLM server for a model without a preset; its version should match the arguments' (vLLM v0.16.0)."
  type        = string
  default     = "vllm/vllm-openai:v0.16.0"
}
