# Plans the module against the real azurerm schema (mock_provider keeps azurerm
# from calling Azure) and checks that the recommendation is wired into the
# scale set or the VMs. The date is pinned so that the ranking does not move.

mock_provider "azurerm" {}

provider "hpcsku" {
  as_of = "2026-11-22"
}

variables {
  resource_group_name  = "rg-train"
  location             = "eastus"
  subnet_id            = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-train/providers/Microsoft.Network/virtualNetworks/vnet/subnets/compute"
  admin_ssh_public_key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBuzqEw5UexSuQnTGu6vq4Pj8yFJ2uCKx8OjmGm+8yvp test"
}

# 70B in bf16 on 100 billion tokens within 30 days: several VMs over
# InfiniBand. The size that leads on job cost, the GB200, has arm64 Grace CPUs
# and no documented Marketplace image, so the recommendation names none and
# the plan stops at the recommendation until image_urn is set.
run "top_pick_without_an_image_asks_for_one" {
  command = plan

  variables {
    tokens_billion = 100
    deadline_hours = 720
  }

  expect_failures = [data.hpcsku_recommendation.training]
}

# The same job with an arm64 image: one scale set, a single placement group
# for InfiniBand, and no proximity placement group.
run "multi_vm_rdma_job_shares_one_scale_set" {
  command = plan

  variables {
    tokens_billion = 100
    deadline_hours = 720
    image_urn      = "canonical:ubuntu-24_04-lts:server-arm64:latest"
  }

  assert {
    condition     = data.hpcsku_recommendation.training.requirements.training_tokens_billion == 100 && data.hpcsku_recommendation.training.recommendations[0].estimate.job_hours <= 720
    error_message = "The job should be sized by its tokens to finish within the deadline."
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training[0].sku == data.hpcsku_recommendation.training.vm_size && data.hpcsku_recommendation.training.recommendations[0].deployment.image_urn == null
    error_message = "The scale set should get the top size, which has no image of its own."
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training[0].instances == data.hpcsku_recommendation.training.recommendations[0].nodes && output.instances > 1
    error_message = "The scale set should have the recommended number of VMs, more than one."
  }

  assert {
    condition     = output.rdma && output.rdma_placement == "scale_set" && azurerm_linux_virtual_machine_scale_set.training[0].single_placement_group == true
    error_message = "An RDMA job across VMs should get one scale set with a single placement group."
  }

  assert {
    condition     = length(azurerm_proximity_placement_group.training) == 0 && azurerm_linux_virtual_machine_scale_set.training[0].proximity_placement_group_id == null
    error_message = "InfiniBand needs no proximity placement group; none should be created by default."
  }

  assert {
    condition     = length(azurerm_linux_virtual_machine.training) == 0 && length(azurerm_availability_set.training) == 0
    error_message = "A scale set needs no separate VMs and no availability set."
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training[0].network_interface[0].accelerated_networking_enabled == data.hpcsku_recommendation.training.recommendations[0].deployment.accelerated_networking
    error_message = "Accelerated networking should follow the recommendation."
  }

  assert {
    condition     = output.image == tomap({ publisher = "canonical", offer = "ubuntu-24_04-lts", sku = "server-arm64", version = "latest" }) && azurerm_linux_virtual_machine_scale_set.training[0].source_image_reference[0].sku == "server-arm64"
    error_message = "image_urn should be split into source_image_reference."
  }
}

# Target "vm": the same kind of job on separate VMs, which InfiniBand reaches
# only inside one availability set. The H100 size, pinned with prefer, has the
# Ubuntu-HPC image from the recommendation. The availability set's ID is
# given at plan time so that each VM's availability_set_id can be compared
# (and azurerm validates it as an availability set ID).
run "multi_vm_rdma_job_on_vms_shares_one_availability_set" {
  command = plan

  variables {
    target         = "vm"
    tokens_billion = 100
    deadline_hours = 720
    prefer         = ["Standard_ND96isr_H100_v5"]
  }

  override_resource {
    target          = azurerm_availability_set.training
    override_during = plan
    values = {
      id = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-train/providers/Microsoft.Compute/availabilitySets/train-avset"
    }
  }

  assert {
    condition     = output.rdma && output.rdma_placement == "availability_set" && !data.hpcsku_recommendation.training.recommendations[0].deployment.single_placement_group
    error_message = "An RDMA job on VMs should be placed in an availability set: ${jsonencode(data.hpcsku_recommendation.training.recommendations[0].deployment)}"
  }

  assert {
    condition     = length(azurerm_linux_virtual_machine.training) == data.hpcsku_recommendation.training.recommendations[0].nodes && output.instances > 1 && length(azurerm_linux_virtual_machine_scale_set.training) == 0
    error_message = "There should be one VM per recommended node, more than one, and no scale set."
  }

  assert {
    condition     = length(azurerm_availability_set.training) == 1 && alltrue([for vm in azurerm_linux_virtual_machine.training : vm.availability_set_id == azurerm_availability_set.training[0].id])
    error_message = "Every VM should be in the one availability set."
  }

  assert {
    condition     = azurerm_availability_set.training[0].platform_fault_domain_count == 1 && azurerm_availability_set.training[0].platform_update_domain_count == 1 && azurerm_availability_set.training[0].managed
    error_message = "The availability set should be managed, with one fault and one update domain."
  }

  assert {
    condition = alltrue([
      for i, vm in azurerm_linux_virtual_machine.training :
      vm.size == "Standard_ND96isr_H100_v5" && vm.name == "train-${i}" && vm.proximity_placement_group_id == null &&
      join(":", [for k in ["publisher", "offer", "sku", "version"] : vm.source_image_reference[0][k]]) == data.hpcsku_recommendation.training.recommendations[0].deployment.image_urn
    ])
    error_message = "Every VM should be the pinned size, boot the recommended image and have no proximity placement group."
  }

  assert {
    condition     = alltrue([for nic in azurerm_network_interface.training : nic.accelerated_networking_enabled == data.hpcsku_recommendation.training.recommendations[0].deployment.accelerated_networking]) && length(azurerm_network_interface.training) == output.instances
    error_message = "Each VM should have its own network interface with the recommended accelerated networking."
  }
}

# The proximity placement group is an option, for Ethernet latency.
run "proximity_placement_group_on_request" {
  command = plan

  variables {
    tokens_billion            = 100
    deadline_hours            = 720
    prefer                    = ["Standard_ND96isr_H100_v5"]
    proximity_placement_group = true
  }

  assert {
    condition     = length(azurerm_proximity_placement_group.training) == 1 && azurerm_proximity_placement_group.training[0].allowed_vm_sizes == toset([output.vm_size])
    error_message = "proximity_placement_group = true should create one group that allows the chosen size."
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training[0].single_placement_group == true && output.rdma_placement == "scale_set"
    error_message = "The single placement group should not depend on the proximity placement group."
  }
}

# A model that fits one VM: no InfiniBand between VMs, no placement setting.
run "single_node_job_needs_no_rdma_placement" {
  command = plan

  variables {
    model_parameters_billion = 1
  }

  assert {
    condition     = output.instances == 1 && output.rdma_placement == null
    error_message = "A 1B model should train on one VM with no RDMA placement."
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training[0].single_placement_group == false && length(azurerm_proximity_placement_group.training) == 0
    error_message = "Without InfiniBand across VMs there should be no single placement group and no proximity placement group."
  }

  assert {
    condition     = join(":", [for k in ["publisher", "offer", "sku", "version"] : azurerm_linux_virtual_machine_scale_set.training[0].source_image_reference[0][k]]) == data.hpcsku_recommendation.training.recommendations[0].deployment.image_urn
    error_message = "source_image_reference should be the recommended image URN, split."
  }
}

run "single_vm_needs_no_availability_set" {
  command = plan

  variables {
    target                   = "vm"
    model_parameters_billion = 1
  }

  assert {
    condition     = length(azurerm_linux_virtual_machine.training) == 1 && length(azurerm_availability_set.training) == 0 && azurerm_linux_virtual_machine.training[0].availability_set_id == null
    error_message = "One VM should need no availability set."
  }
}

run "image_can_be_overridden" {
  command = plan

  variables {
    image_urn = "almalinux:almalinux-hpc:8_10-hpc-gen2:latest"
    prefer    = ["Standard_ND96isr_H100_v5"]
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training[0].source_image_reference[0].offer == "almalinux-hpc" && azurerm_linux_virtual_machine_scale_set.training[0].source_image_reference[0].sku == "8_10-hpc-gen2"
    error_message = "image_urn should replace the recommended image."
  }
}

run "prefer_pins_the_size" {
  command = plan

  variables {
    prefer = ["Standard_ND96isr_H100_v5"]
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training[0].sku == "Standard_ND96isr_H100_v5"
    error_message = "A preferred size that fits should be kept."
  }
}

# InfiniBand reaches at most 100 VMs of one scale set (single placement
# group): a larger job is refused with the reason.
run "more_than_100_rdma_vms_rejected" {
  command = plan

  variables {
    nodes = 101
  }

  expect_failures = [var.nodes]
}
