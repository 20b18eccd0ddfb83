# Provider-defined functions need Terraform 1.8 or later, and the provider in
# required_providers. They need no provider block.
terraform {
  required_version = ">= 1.8.0"

  required_providers {
    hpcsku = {
      source = "hpcsku/hpcsku"
    }
  }
}

variable "gpu_size" {
  type    = string
  default = "Standard_ND96isr_H100_v5"
}

variable "nodes" {
  type    = number
  default = 3
}

locals {
  # 1059.38 GiB: bf16 weights and gradients, fp32 master weights, Adam
  # moments (1043.08 GiB, sharded over the GPUs), and the 16.3 GiB of
  # activations of one 4,096-token sequence that every GPU keeps whole.
  needed_gib    = provider::hpcsku::gpu_memory_gib(70, "bf16", "training")
  available_gib = provider::hpcsku::sku(var.gpu_size).gpu.memory_gib_total * var.nodes
}

output "gpu_memory" {
  value = {
    needed_gib    = local.needed_gib
    available_gib = local.available_gib
  }

  precondition {
    condition     = local.available_gib >= local.needed_gib
    error_message = "${var.nodes} x ${var.gpu_size} have ${local.available_gib} GiB of GPU memory; training a 70B model in bf16 needs ${local.needed_gib} GiB."
  }
}

# Serving the same model quantized to int4 needs 44.17 GiB: 32.6 GiB of
# weights, a 5% workspace and the KV cache of 8 sequences of 4,096 tokens,
# approximated from the parameter count.
output "int4_inference_gib" {
  value = provider::hpcsku::gpu_memory_gib(70, "int4", "inference")
}

# The optional fourth argument names the model (its architecture gives the
# exact KV cache) and the serving load: Llama 3.1 70B in int4 for 16
# conversations of 8,192 tokens needs 74.5 GiB, 40 of them KV cache
# (320 KiB per token).
output "llama_70b_int4_chat_gib" {
  value = provider::hpcsku::gpu_memory_gib(70.55, "int4", "inference", {
    model               = "llama-3.1-70b"
    context_tokens      = 8192
    concurrent_requests = 16
  })
}

# QLoRA fine-tuning of the same model: 52.7 GiB, one 80 GB GPU. With the
# model named, the count and precision may be null: the table's are used.
output "llama_70b_qlora_gib" {
  value = provider::hpcsku::gpu_memory_gib(null, null, "fine_tuning", {
    model              = "llama-3.1-70b"
    fine_tuning_method = "qlora"
  })
}
