variable "name" {
  description = "Name of the VM; its network interface is named after it."
  type        = string
  default     = "inference"
}

variable "resource_group_name" {
  description = "Resource group to deploy into."
  type        = string
}

variable "location" {
  description = "Azure region, for example `eastus`. Only sizes priced there are ranked."
  type        = string
}

variable "subnet_id" {
  description = "ID of the subnet for the VM's network interface."
  type        = string
}

variable "admin_username" {
  description = "Administrator user name."
  type        = string
  default     = "azureuser"
}

variable "admin_ssh_public_key" {
  description = "SSH public key for the administrator."
  type        = string
}

variable "model" {
  description = "The served model, by its id or name in the catalog's model table (the `hpcsku_models` data source lists them), for example `llama-3.1-8b`."
  type        = string
  default     = "llama-3.1-8b"
}

variable "precision" {
  description = "Precision the model is served in: `fp32`, `tf32`, `bf16`, `fp16`, `fp8`, `int8` or `int4`. Null serves it as published."
  type        = string
  default     = null
}

variable "context_tokens" {
  description = "Tokens of one conversation, prompt plus output: vLLM's `--max-model-len`."
  type        = number
  default     = 8192
}

variable "concurrent_requests" {
  description = "Conversations in flight at once; each holds its KV cache on the GPUs."
  type        = number
  default     = 32
}

variable "max_price_per_hour" {
  description = "Upper bound in USD per hour for the VM, or null for none."
  type        = number
  default     = null
}

variable "spot" {
  description = "Run as a Spot VM (evicted when Azure needs the capacity back), priced with spot estimates. Suits stateless inference behind a load balancer."
  type        = bool
  default     = false
}

variable "prefer" {
  description = "Sizes to keep, in order of preference, so that a new catalog never changes `size` and replaces the VM."
  type        = list(string)
  default     = null
}

variable "image_urn" {
  description = "Marketplace image as `publisher:offer:sku:version`. Null uses the image the recommendation names for the size; where it names none (no documented Marketplace image carries the driver the size needs, as for the NC RTX PRO 6000 BSE v6), the plan stops and asks for this."
  type        = string
  default     = null

  validation {
    condition     = var.image_urn == null || length(split(":", coalesce(var.image_urn, ":::"))) == 4
    error_message = "image_urn must look like publisher:offer:sku:version."
  }
}

variable "tags" {
  description = "Tags for every resource."
  type        = map(string)
  default     = {}
}

variable "confidential" {
  description = "Serve on a confidential GPU (NCCads H100 v5): the VM boots as a confidential VM with secure boot, vTPM and its guest state encrypted with the OS disk, on the onboarding's pinned image. Null lets confidential sizes compete only where asked (the recommendation's default: none)."
  type        = bool
  default     = null
}

variable "serve_model" {
  description = "Hugging Face model for cloud-init to serve with vLLM on the VM, with the recommendation's deployment.serving.vllm_args (vLLM's CUDA image on NVIDIA GPUs, its ROCm image on AMD GPUs); null to leave the VM without a server. A confidential size cannot serve from cloud-init: the plan stops."
  type        = string
  default     = null
}

variable "vllm_image" {
  description = "vLLM container image cloud-init runs on NVIDIA GPUs; its version should match the arguments' (vLLM v0.16.0)."
  type        = string
  default     = "vllm/vllm-openai:v0.16.0"
}

variable "vllm_rocm_image" {
  description = "vLLM container image cloud-init runs on AMD GPUs (vLLM's ROCm build); its version should match the arguments' (vLLM v0.16.0)."
  type        = string
  default     = "vllm/vllm-openai-rocm:v0.16.0"
}
