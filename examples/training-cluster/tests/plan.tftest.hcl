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
# InfiniBand. The size that leads on job cost is the GB200, with arm64 Grace
# CPUs and its arm64 Marketplace image (ubuntu-hpc:2404-gb). Azure allocates
# it by NVL72 racks of 18 VMs and rejects a single placement group, so the
# scale set takes whole racks, no single placement group, and the rack
# settings azurerm cannot set come out for azapi.
run "gb200_top_pick_plans_with_its_arm64_image" {
  command = plan

  variables {
    tokens_billion = 100
    deadline_hours = 720
  }

  assert {
    condition     = strcontains(output.vm_size, "GB200") && data.hpcsku_recommendation.training.recommendations[0].deployment.cpu_architecture == "arm64"
    error_message = "The GB200 should lead on job cost: ${output.vm_size}."
  }

  assert {
    condition     = output.image == tomap({ publisher = "microsoft-dsvm", offer = "ubuntu-hpc", sku = "2404-gb", version = "latest" }) && azurerm_linux_virtual_machine_scale_set.training[0].source_image_reference[0].sku == "2404-gb"
    error_message = "The GB200 should boot the arm64 ubuntu-hpc:2404-gb image: ${jsonencode(output.image)}"
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training[0].instances == output.instances && output.instances % 18 == 0 && output.instances > 1
    error_message = "The scale set should take whole racks of 18 VMs: ${output.instances}."
  }

  assert {
    condition     = output.rdma && output.rdma_placement == "scale_set" && azurerm_linux_virtual_machine_scale_set.training[0].single_placement_group == false
    error_message = "The GB200 scale set should have no single placement group, which Azure rejects for it."
  }

  assert {
    condition     = output.interconnect.high_speed_interconnect_placement == "Trunk" && output.interconnect.racks * output.interconnect.rack_vms == output.instances && output.interconnect.interconnect_block_capacity == output.instances && strcontains(output.interconnect.note, "azapi")
    error_message = "The rack settings should be given for azapi: ${jsonencode(output.interconnect)}"
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training[0].secure_boot_enabled == false && azurerm_linux_virtual_machine_scale_set.training[0].os_disk[0].security_encryption_type == null
    error_message = "A size that is not confidential should boot as a standard VM."
  }
}

# The same job pinned to the H100 (prefer): one scale set, a single
# placement group for InfiniBand, the Ubuntu-HPC image and no proximity
# placement group.
run "multi_vm_rdma_job_shares_one_scale_set" {
  command = plan

  variables {
    tokens_billion = 100
    deadline_hours = 720
    prefer         = ["Standard_ND96isr_H100_v5"]
  }

  assert {
    condition     = data.hpcsku_recommendation.training.requirements.training_tokens_billion == 100 && data.hpcsku_recommendation.training.recommendations[0].estimate.job_hours <= 720
    error_message = "The job should be sized by its tokens to finish within the deadline."
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training[0].sku == "Standard_ND96isr_H100_v5" && output.interconnect == null
    error_message = "The scale set should get the pinned size, which takes no rack settings."
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
    condition     = join(":", [for k in ["publisher", "offer", "sku", "version"] : azurerm_linux_virtual_machine_scale_set.training[0].source_image_reference[0][k]]) == data.hpcsku_recommendation.training.recommendations[0].deployment.image_urn
    error_message = "image_urn should be split into source_image_reference."
  }
}

# A confidential size (confidential = true) boots as a confidential VM: secure
# boot, vTPM, the VM guest state encrypted with the OS disk, and Canonical's
# confidential-VM image. eastus prices no confidential size; eastus2 does.
run "confidential_h100_boots_as_a_confidential_vm" {
  command = plan

  variables {
    location                 = "eastus2"
    model_parameters_billion = 1
    confidential             = true
  }

  assert {
    condition     = output.vm_size == "Standard_NCC40ads_H100_v5" && data.hpcsku_recommendation.training.recommendations[0].deployment.security_type == "ConfidentialVM"
    error_message = "The confidential H100 should be recommended as a confidential VM: ${output.vm_size}."
  }

  assert {
    condition = (azurerm_linux_virtual_machine_scale_set.training[0].secure_boot_enabled && azurerm_linux_virtual_machine_scale_set.training[0].vtpm_enabled &&
    azurerm_linux_virtual_machine_scale_set.training[0].os_disk[0].security_encryption_type == "DiskWithVMGuestState")
    error_message = "The scale set should enable secure boot and vTPM and encrypt the VM guest state."
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training[0].source_image_reference[0].offer == "0001-com-ubuntu-confidential-vm-jammy"
    error_message = "The confidential H100 should boot the confidential-VM image."
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
