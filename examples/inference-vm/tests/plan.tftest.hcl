# Plans the module against the real azurerm schema (mock_provider keeps azurerm
# from calling Azure) and checks that the recommendation reaches the VM and its
# network interface. The date is pinned so that the ranking does not move.

mock_provider "azurerm" {}

provider "hpcsku" {
  as_of = "2026-11-22"
}

variables {
  resource_group_name  = "rg-inference"
  location             = "eastus"
  subnet_id            = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-inference/providers/Microsoft.Network/virtualNetworks/vnet/subnets/serving"
  admin_ssh_public_key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBuzqEw5UexSuQnTGu6vq4Pj8yFJ2uCKx8OjmGm+8yvp test"
}

run "single_vm_for_an_8b_model" {
  command = plan

  assert {
    condition     = azurerm_linux_virtual_machine.inference.size == data.hpcsku_recommendation.inference.vm_size
    error_message = "size should be the recommended size."
  }

  assert {
    condition     = data.hpcsku_recommendation.inference.recommendations[0].nodes == 1 && !data.hpcsku_recommendation.inference.recommendations[0].deployment.rdma
    error_message = "An 8B model should be served from one VM without RDMA."
  }

  assert {
    condition     = output.gpu.memory_gib >= output.gpu_memory_needed_gib.gib
    error_message = "The VM should hold the estimated GPU memory."
  }

  # Llama 3.1 8B: 2 x 32 layers x 8 KV heads x 128 x 2 bytes = 128 KiB per
  # token; 32 conversations of 8,192 tokens = 32 GiB of KV cache.
  assert {
    condition     = output.gpu_memory_needed_gib.kv_cache_gib == 32 && data.hpcsku_recommendation.inference.requirements.kv_bytes_per_token == 131072 && data.hpcsku_recommendation.inference.requirements.model == "llama-3.1-8b"
    error_message = "The KV cache should be 32 GiB at 128 KiB per token: ${output.gpu_memory_needed_gib.kv_cache_gib}"
  }

  # 15 GiB of weights and 32 GiB of KV cache never land on a 16 GB GPU.
  assert {
    condition     = output.gpu.memory_gib / output.gpu.count > 16
    error_message = "An 8B chat service at 8k context should not run on 16 GB GPUs: ${output.vm_size}"
  }

  assert {
    condition     = alltrue([for a in ["--tensor-parallel-size=${data.hpcsku_recommendation.inference.recommendations[0].tensor_parallel_size}", "--max-model-len=8192", "--max-num-seqs=32"] : strcontains(output.vllm_args, a)])
    error_message = "The vLLM arguments should follow the layout: ${output.vllm_args}"
  }

  assert {
    condition     = azurerm_network_interface.inference.accelerated_networking_enabled == data.hpcsku_recommendation.inference.recommendations[0].deployment.accelerated_networking
    error_message = "Accelerated networking should follow the recommendation."
  }

  assert {
    condition     = data.hpcsku_recommendation.inference.recommendations[0].deployment.zones == null && azurerm_linux_virtual_machine.inference.zone == null
    error_message = "Without an availability file there are no zones to give, and the VM is regional."
  }

  assert {
    condition     = azurerm_linux_virtual_machine.inference.priority == "Regular" && azurerm_linux_virtual_machine.inference.eviction_policy == null
    error_message = "A regular VM by default."
  }
}

# A size the catalog names no image for (the AMD V710, pinned with prefer):
# the plan stops at the recommendation and asks for one.
run "size_without_a_known_image_asks_for_one" {
  command = plan

  # A lighter load (4 conversations of 4,096 tokens: 2 GiB of KV cache)
  # that 24 GB GPUs under 2 USD per hour hold.
  variables {
    max_price_per_hour  = 2
    context_tokens      = 4096
    concurrent_requests = 4
    prefer              = ["Standard_NV24ads_V710_v5"]
  }

  expect_failures = [data.hpcsku_recommendation.inference]
}

# The NC RTX PRO 6000 BSE v6 needs the GRID v20 build of the HPC image, which
# has no documented Marketplace URN: no image_urn, and the plan asks for one
# rather than booting the plain Ubuntu-HPC image, whose driver the GPU cannot use.
run "rtx_pro_6000_asks_for_an_image" {
  command = plan

  variables {
    prefer = ["Standard_NC144ds_xl_RTXPRO6000BSE_v6"]
  }

  expect_failures = [data.hpcsku_recommendation.inference]
}

run "rtx_pro_6000_with_an_image" {
  command = plan

  variables {
    prefer    = ["Standard_NC144ds_xl_RTXPRO6000BSE_v6"]
    image_urn = "contoso:ubuntu-hpc-grid:2404-ncv6:1.0.0"
  }

  assert {
    condition     = azurerm_linux_virtual_machine.inference.size == "Standard_NC144ds_xl_RTXPRO6000BSE_v6" && data.hpcsku_recommendation.inference.recommendations[0].deployment.image_urn == null
    error_message = "The preferred RTX PRO 6000 size should be kept, with no image from the recommendation."
  }

  assert {
    condition     = output.image == tomap({ publisher = "contoso", offer = "ubuntu-hpc-grid", sku = "2404-ncv6", version = "1.0.0" }) && azurerm_linux_virtual_machine.inference.source_image_reference[0].sku == "2404-ncv6"
    error_message = "The given image should boot the VM: ${jsonencode(azurerm_linux_virtual_machine.inference.source_image_reference)}"
  }
}

run "price_cap_is_respected" {
  command = plan

  variables {
    max_price_per_hour  = 2
    context_tokens      = 4096
    concurrent_requests = 4
    image_urn           = "canonical:ubuntu-24_04-lts:server:latest"
  }

  assert {
    condition     = output.price_per_hour <= 2 && azurerm_linux_virtual_machine.inference.source_image_reference[0].publisher == "canonical"
    error_message = "The VM should cost at most the cap and boot the given image: ${output.price_per_hour}"
  }
}

# A confidential VM: secure boot, vTPM and the guest state encrypted with
# the OS disk, on the onboarding package's pinned image.
run "confidential_vm" {
  command = plan

  variables {
    location     = "eastus2"
    confidential = true
  }

  assert {
    condition     = azurerm_linux_virtual_machine.inference.size == "Standard_NCC40ads_H100_v5" && azurerm_linux_virtual_machine.inference.secure_boot_enabled && azurerm_linux_virtual_machine.inference.vtpm_enabled && azurerm_linux_virtual_machine.inference.os_disk[0].security_encryption_type == "DiskWithVMGuestState"
    error_message = "The confidential VM should boot with secure boot, vTPM and DiskWithVMGuestState: ${azurerm_linux_virtual_machine.inference.size}"
  }

  assert {
    condition     = azurerm_linux_virtual_machine.inference.source_image_reference[0].version == "22.04.202606120"
    error_message = "The confidential image should be the pinned version."
  }
}

# A Spot VM takes the recommendation's priority, eviction policy (Delete:
# an evicted VM's disks go with it) and price cap.
run "spot_vm" {
  command = plan

  variables {
    spot = true
  }

  assert {
    condition     = azurerm_linux_virtual_machine.inference.priority == "Spot" && azurerm_linux_virtual_machine.inference.eviction_policy == "Delete" && azurerm_linux_virtual_machine.inference.max_bid_price == -1
    error_message = "The Spot VM should take priority, eviction policy and max bid price."
  }
}

# With serve_model, cloud-init starts vLLM with the recommendation's
# arguments: the engine runs the layout the estimate used.
run "vllm_from_cloud_init" {
  command = plan

  variables {
    serve_model = "meta-llama/Llama-3.1-8B-Instruct"
  }

  assert {
    condition     = strcontains(base64decode(azurerm_linux_virtual_machine.inference.custom_data), "\"--max-num-seqs=${data.hpcsku_recommendation.inference.recommendations[0].estimate.sequences_per_copy}\"") && strcontains(base64decode(azurerm_linux_virtual_machine.inference.custom_data), "\"meta-llama/Llama-3.1-8B-Instruct\"")
    error_message = "cloud-init should run vLLM with the model and the recommendation's --max-num-seqs."
  }
}

# The vllm_args output and cloud-init both carry the recommendation's
# deployment.serving.vllm_args whole: Llama 3.1 8B served in fp8 to 64
# conversations on an NC80adis H100 v5 keeps --quantization=fp8 and
# --kv-cache-dtype=fp8 (the bf16 checkpoint is quantized on load) and
# --data-parallel-size=2, a copy on each of its two GPUs.
run "vllm_args_are_the_recommendations" {
  command = plan

  variables {
    precision           = "fp8"
    concurrent_requests = 64
    prefer              = ["Standard_NC80adis_H100_v5"]
    serve_model         = "meta-llama/Llama-3.1-8B-Instruct"
  }

  assert {
    condition     = output.vllm_args == join(" ", data.hpcsku_recommendation.inference.recommendations[0].deployment.serving.vllm_args) && alltrue([for a in ["--quantization=fp8", "--kv-cache-dtype=fp8", "--data-parallel-size=2"] : strcontains(output.vllm_args, a)])
    error_message = "The vllm_args output should be the recommendation's arguments ${jsonencode(data.hpcsku_recommendation.inference.recommendations[0].deployment.serving.vllm_args)}: ${output.vllm_args}"
  }

  assert {
    condition = alltrue([
      for a in data.hpcsku_recommendation.inference.recommendations[0].deployment.serving.vllm_args : strcontains(base64decode(azurerm_linux_virtual_machine.inference.custom_data), jsonencode(a))
    ])
    error_message = "cloud-init should run vLLM with every argument of the recommendation."
  }
}

# An AMD GPU size (MI300X, on the ROCm HPC image) runs vLLM's ROCm image with
# the GPU devices ROCm needs, never the CUDA image with --gpus.
run "amd_vm_runs_vllm_for_rocm" {
  command = plan

  variables {
    location    = "eastus2"
    model       = "llama-3.1-405b"
    serve_model = "meta-llama/Llama-3.1-405B-Instruct"
  }

  assert {
    condition     = output.gpu.model == data.hpcsku_recommendation.inference.recommendations[0].sku.gpu.model && data.hpcsku_recommendation.inference.recommendations[0].sku.gpu.vendor == "amd"
    error_message = "The test wants an AMD GPU size first: ${output.vm_size}"
  }

  assert {
    condition = alltrue([
      for s in ["/dev/kfd", "/dev/dri", "vllm/vllm-openai-rocm:v0.16.0", "--group-add"] : strcontains(base64decode(azurerm_linux_virtual_machine.inference.custom_data), s)
    ]) && !strcontains(base64decode(azurerm_linux_virtual_machine.inference.custom_data), "--gpus")
    error_message = "cloud-init should run vLLM's ROCm image with /dev/kfd and /dev/dri, without --gpus."
  }
}

# The confidential-VM image has no GPU driver or container runtime (the
# onboarding package sets the GPU up after the first boot): serve_model
# stops the plan.
run "confidential_vm_does_not_serve_from_cloud_init" {
  command = plan

  variables {
    location     = "eastus2"
    confidential = true
    serve_model  = "meta-llama/Llama-3.1-8B-Instruct"
  }

  expect_failures = [azurerm_linux_virtual_machine.inference]
}
