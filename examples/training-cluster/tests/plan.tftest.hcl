# Plans the module against the real azurerm schema (mock_provider keeps azurerm
# from calling Azure) and checks that the recommendation is wired into the
# scale set. The date is pinned so that the ranking does not move.

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
# InfiniBand. The GB200, which leads on job cost, has no image in the catalog
# (its Grace CPUs need an arm64 image, the operator's choice), so this run
# pins the H100 size, whose image the catalog names.
run "multi_node_job_gets_rdma_placement" {
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
    condition     = azurerm_linux_virtual_machine_scale_set.training.sku == data.hpcsku_recommendation.training.vm_size
    error_message = "The scale set's sku should be the recommended size."
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training.instances == data.hpcsku_recommendation.training.recommendations[0].nodes && output.instances > 1
    error_message = "The scale set should have the recommended number of VMs, more than one."
  }

  assert {
    condition     = output.rdma && azurerm_linux_virtual_machine_scale_set.training.single_placement_group && length(azurerm_proximity_placement_group.training) == 1
    error_message = "An RDMA job should get a single placement group and a proximity placement group."
  }

  assert {
    condition     = azurerm_proximity_placement_group.training[0].allowed_vm_sizes == toset([output.vm_size])
    error_message = "The proximity placement group should allow the chosen size."
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training.network_interface[0].accelerated_networking_enabled
    error_message = "Accelerated networking should follow the recommendation."
  }

  assert {
    condition     = join(":", [for k in ["publisher", "offer", "sku", "version"] : azurerm_linux_virtual_machine_scale_set.training.source_image_reference[0][k]]) == data.hpcsku_recommendation.training.recommendations[0].deployment.image_urn
    error_message = "source_image_reference should be the recommended image URN, split."
  }
}

# A model that fits one VM: no InfiniBand, no placement groups.
run "single_node_job_skips_placement_groups" {
  command = plan

  variables {
    model_parameters_billion = 1
  }

  assert {
    condition     = output.instances == 1 && !output.rdma
    error_message = "A 1B model should train on one VM without RDMA."
  }

  assert {
    condition     = length(azurerm_proximity_placement_group.training) == 0 && !azurerm_linux_virtual_machine_scale_set.training.single_placement_group
    error_message = "Without RDMA there should be no proximity placement group and no single placement group."
  }
}

run "image_can_be_overridden" {
  command = plan

  variables {
    image_urn = "almalinux:almalinux-hpc:8_10-hpc-gen2:latest"
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training.source_image_reference[0].offer == "almalinux-hpc" && azurerm_linux_virtual_machine_scale_set.training.source_image_reference[0].sku == "8_10-hpc-gen2"
    error_message = "image_urn should replace the recommended image."
  }
}

run "prefer_pins_the_size" {
  command = plan

  variables {
    prefer = ["Standard_ND96isr_H100_v5"]
  }

  assert {
    condition     = azurerm_linux_virtual_machine_scale_set.training.sku == "Standard_ND96isr_H100_v5"
    error_message = "A preferred size that fits should be kept."
  }
}
