# Plans the module (the azurerm provider is mocked; nothing is deployed unless
# ccws_template_file is set) and checks both parameter files. The date is
# pinned so that the ranking does not move.

mock_provider "azurerm" {}

provider "hpcsku" {
  as_of = "2026-11-22"
}

variables {
  location = "eastus"
}

run "three_partitions" {
  command = plan

  assert {
    condition     = output.partitions.hpc.slurm_hpc && data.hpcsku_recommendation.hpc.recommendations[0].sku.network.rdma
    error_message = "The hpc partition should be tightly coupled, on an RDMA size."
  }

  assert {
    condition     = output.partitions.gpu.machine_type == data.hpcsku_recommendation.gpu.vm_size && data.hpcsku_recommendation.gpu.recommendations[0].sku.category == "gpu"
    error_message = "The gpu partition should get the recommended GPU size."
  }

  assert {
    condition     = output.partitions.hpc.max_nodes >= output.partitions.hpc.nodes_per_job
    error_message = "maxNodes should allow one job."
  }

  assert {
    condition     = length(azurerm_subscription_template_deployment.ccws) == 0 && output.deployment_id == null
    error_message = "Nothing is deployed without a template."
  }
}

run "workspace_parameters_file" {
  command = plan

  variables {
    ccws_parameters = {
      adminUsername = "hpcadmin"
      clusterName   = "ccw"
    }
  }

  assert {
    condition = jsondecode(output.ccws_parameters_json).parameters.gpu.value == {
      sku      = data.hpcsku_recommendation.gpu.vm_size
      maxNodes = output.partitions.gpu.max_nodes
      image    = output.partitions.gpu.image
    }
    error_message = "gpu should carry sku, maxNodes and image: ${output.ccws_parameters_json}"
  }

  assert {
    condition     = jsondecode(output.ccws_parameters_json).parameters.htc.value.useSpot && jsondecode(output.ccws_parameters_json).parameters.hpc.value.sku == data.hpcsku_recommendation.hpc.vm_size
    error_message = "htc should use Spot and hpc the recommended size."
  }

  assert {
    condition     = jsondecode(output.ccws_parameters_json).parameters.adminUsername.value == "hpcadmin" && jsondecode(output.ccws_parameters_json).contentVersion == "1.0.0.0"
    error_message = "The other parameters should be wrapped in { value = ... }."
  }
}

run "slurm_cluster_parameters_file" {
  command = plan

  assert {
    condition     = jsondecode(output.slurm_cluster_parameters_json).GPUMachineType == data.hpcsku_recommendation.gpu.vm_size && jsondecode(output.slurm_cluster_parameters_json).HPCMachineType == data.hpcsku_recommendation.hpc.vm_size && jsondecode(output.slurm_cluster_parameters_json).HTCMachineType == data.hpcsku_recommendation.htc.vm_size
    error_message = "The machine types should be the recommended sizes: ${output.slurm_cluster_parameters_json}"
  }

  # CycleCloud's template still defaults GPUMachineType to this retired size.
  assert {
    condition     = jsondecode(output.slurm_cluster_parameters_json).GPUMachineType != "Standard_NC24rs_v3"
    error_message = "The GPU partition should not get the retired default."
  }
}

run "deploys_the_workspace_when_given_a_template" {
  command = plan

  variables {
    ccws_template_file = "tests/testdata/mainTemplate.json"
  }

  assert {
    condition     = jsondecode(azurerm_subscription_template_deployment.ccws[0].parameters_content).gpu.value.sku == data.hpcsku_recommendation.gpu.vm_size
    error_message = "The deployment should get the sized partitions."
  }
}
