# Plans the module (the azurerm provider is mocked; nothing is deployed) and
# checks both parameter files against what their consumers accept:
#   * the workspace's: tests/ccws_template_check reads
#     tests/testdata/ccws_mainTemplate.json, whose parameters and hpc_t, htc_t
#     and availabilityZone_t types are transcribed from CycleCloud Workspace
#     for Slurm's bicep/mainTemplate.bicep and bicep/types.bicep;
#   * the cluster's: tests/slurm_template_check reads
#     tests/testdata/slurm_parameters.json, transcribed from the parameters of
#     Azure/cyclecloud-slurm's templates/slurm.txt.
# Runs that feed the checkers files they must reject show that they can fail.
# The date is pinned so that the ranking does not move; the gpu partition
# prefers ND H100 v5, which has a documented image, except where a run is
# about sizes without one.

mock_provider "azurerm" {}

provider "hpcsku" {
  as_of = "2026-11-22"
}

variables {
  location = "eastus"
  prefer = {
    gpu = ["Standard_ND96isr_H100_v5"]
  }
  ccws_parameters = {
    adminUsername         = "hpcadmin"
    key                   = { type = "entered", value = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB7Zk2wYqFv3Jc0pX1n9fQz4T0Ew8dM2rHk5sLq6uVtO hpcadmin" }
    ccVMName              = "ccw-cyclecloud-vm"
    ccVMSize              = "Standard_D4as_v5"
    resourceGroup         = "rg-ccw"
    schedFilesystem       = { type = "nfs-new", nfsCapacityInGb = 1024 }
    sharedFilesystem      = { type = "nfs-new", nfsCapacityInGb = 1024 }
    network               = { type = "new", addressSpace = "10.0.0.0/24" }
    storagePrivateDnsZone = { type = "new" }
    schedulerNode         = { sku = "Standard_D4as_v5", osImage = "cycle.image.ubuntu22" }
    loginNodes            = { sku = "Standard_D2as_v5", osImage = "cycle.image.ubuntu22", initialNodes = 1, maxNodes = 1 }
    tags                  = {}
    clusterName           = "ccw"
  }
  ccws_admin_password = "not-a-real-password-1!"
}

run "partitions_follow_the_recommendations" {
  command = plan

  assert {
    condition     = output.partitions.hpc.machine_type == data.hpcsku_recommendation.hpc.vm_size && output.partitions.gpu.machine_type == data.hpcsku_recommendation.gpu.vm_size && output.partitions.htc.machine_type == data.hpcsku_recommendation.htc.vm_size
    error_message = "Each partition should run its recommended size."
  }

  assert {
    condition     = output.partitions.hpc.rdma && data.hpcsku_recommendation.hpc.recommendations[0].sku.network.rdma && data.hpcsku_recommendation.gpu.recommendations[0].sku.category == "gpu"
    error_message = "The hpc partition should be on an InfiniBand size, the gpu partition on a GPU size."
  }

  assert {
    condition     = alltrue([for name, r in { hpc = data.hpcsku_recommendation.hpc, gpu = data.hpcsku_recommendation.gpu, htc = data.hpcsku_recommendation.htc } : output.partitions[name].nodes_per_job == r.recommendations[0].nodes && output.partitions[name].max_nodes >= r.recommendations[0].nodes])
    error_message = "maxNodes should allow one job of the recommended node count: ${jsonencode(output.partitions)}"
  }

  # CycleCloud's Slurm template sets slurm.hpc per node array; the module has
  # nothing to pass for it.
  assert {
    condition     = alltrue([for p in values(output.partitions) : !can(p.slurm_hpc)])
    error_message = "The partitions should not carry a slurm_hpc flag."
  }

  assert {
    condition     = alltrue([for name, r in { hpc = data.hpcsku_recommendation.hpc, gpu = data.hpcsku_recommendation.gpu, htc = data.hpcsku_recommendation.htc } : output.partitions[name].os_image == r.recommendations[0].deployment.image_urn && output.partitions[name].os_image != null])
    error_message = "Without os_images each partition should get its recommendation's documented image: ${jsonencode(output.partitions)}"
  }
}

run "max_nodes_is_raised_to_one_job" {
  command = plan

  variables {
    max_nodes = { hpc = 1 }
  }

  assert {
    condition     = output.partitions.hpc.nodes_per_job > 1 && output.partitions.hpc.max_nodes == output.partitions.hpc.nodes_per_job && output.partitions.gpu.max_nodes == max(8, output.partitions.gpu.nodes_per_job)
    error_message = "A partition limit below one job's VMs should be raised to them, and defaults kept elsewhere: ${jsonencode(output.partitions)}"
  }
}

run "workspace_parameters_file" {
  command = plan

  assert {
    condition = jsondecode(output.ccws_parameters_json).parameters.gpu.value == {
      sku      = data.hpcsku_recommendation.gpu.vm_size
      osImage  = data.hpcsku_recommendation.gpu.recommendations[0].deployment.cyclecloud.os_image
      maxNodes = output.partitions.gpu.max_nodes
    }
    error_message = "gpu should carry sku, osImage and maxNodes, nothing else."
  }

  assert {
    condition     = jsondecode(output.ccws_parameters_json).parameters.htc.value.useSpot == true && !can(jsondecode(output.ccws_parameters_json).parameters.hpc.value.useSpot) && jsondecode(output.ccws_parameters_json).parameters.hpc.value.sku == data.hpcsku_recommendation.hpc.vm_size
    error_message = "htc should use Spot (hpc_t has no useSpot) and hpc the recommended size."
  }

  assert {
    condition     = alltrue([for p in ["hpc", "gpu", "htc"] : !can(jsondecode(output.ccws_parameters_json).parameters[p].value.image) && !can(jsondecode(output.ccws_parameters_json).parameters[p].value.availabilityZone)])
    error_message = "The partitions should name the image osImage, and have no availabilityZone unless zones are given."
  }

  assert {
    condition     = jsondecode(output.ccws_parameters_json).parameters.location.value == "eastus" && jsondecode(output.ccws_parameters_json).parameters.adminPassword.value == "not-a-real-password-1!" && jsondecode(output.ccws_parameters_json).parameters.adminUsername.value == "hpcadmin" && jsondecode(output.ccws_parameters_json).contentVersion == "1.0.0.0"
    error_message = "location, adminPassword and the given parameters should be wrapped in { value = ... }."
  }

  assert {
    condition     = jsondecode(output.ccws_partitions_json) == { for p in ["hpc", "gpu", "htc"] : p => jsondecode(output.ccws_parameters_json).parameters[p] }
    error_message = "ccws_partitions_json should hold the same partitions as the full file."
  }
}

run "workspace_parameters_match_the_workspace_template" {
  command = plan

  module {
    source = "./tests/ccws_template_check"
  }

  variables {
    template        = jsondecode(file("tests/testdata/ccws_mainTemplate.json"))
    parameters_json = run.workspace_parameters_file.ccws_parameters_json
  }

  assert {
    condition     = output.problems == []
    error_message = "The workspace would reject the parameters file: ${join(" ", output.problems)}"
  }

  assert {
    condition     = sort(output.required) == sort(["location", "adminUsername", "adminPassword", "key", "ccVMName", "ccVMSize", "resourceGroup", "schedFilesystem", "sharedFilesystem", "network", "storagePrivateDnsZone", "schedulerNode", "loginNodes", "htc", "hpc", "gpu", "tags"])
    error_message = "The transcribed template should require the 17 parameters of mainTemplate.bicep that have no default: ${jsonencode(output.required)}"
  }
}

# The partition shape the module used to emit (`image`), a zone outside
# availabilityZone_t, and a file without the required parameters.
run "workspace_check_rejects_the_old_partition_shape" {
  command = plan

  module {
    source = "./tests/ccws_template_check"
  }

  variables {
    template = jsondecode(file("tests/testdata/ccws_mainTemplate.json"))
    parameters_json = jsonencode({ parameters = {
      location = { value = "eastus" }
      hpc      = { value = { sku = "Standard_HB176rs_v4", maxNodes = 16, image = "microsoft-dsvm:ubuntu-hpc:2204:latest" } }
      gpu      = { value = { sku = "Standard_ND96isr_H100_v5", maxNodes = 8, osImage = "microsoft-dsvm:ubuntu-hpc:2404:latest", availabilityZone = ["4"] } }
      htc      = { value = { sku = "Standard_F64s_v2", maxNodes = 100, osImage = "cycle.image.ubuntu24", useSpot = true } }
    } })
  }

  assert {
    condition     = contains(output.problems, "hpc.osImage is required by hpc_t but missing.") && contains(output.problems, "hpc.image is not a field of hpc_t.")
    error_message = "The check should reject image in place of osImage: ${join(" ", output.problems)}"
  }

  assert {
    condition     = contains(output.problems, "gpu.availabilityZone holds \"4\", not string among \"1\", \"2\", \"3\" (hpc_t).")
    error_message = "The check should reject zone 4: ${join(" ", output.problems)}"
  }

  assert {
    condition     = contains(output.problems, "Parameter adminUsername is required by the template but missing.") && contains(output.problems, "Parameter network is required by the template but missing.") && length(output.problems) == 16
    error_message = "The check should list the 13 missing parameters and the three partition problems: ${join(" ", output.problems)}"
  }
}

run "workspace_requires_its_parameters" {
  command = plan

  variables {
    ccws_parameters = {
      adminUsername = "hpcadmin"
      ccVMName      = "ccw-cyclecloud-vm"
    }
  }

  expect_failures = [var.ccws_parameters]
}

run "workspace_parameters_the_module_sets_are_refused" {
  command = plan

  variables {
    ccws_parameters = {
      adminUsername         = "hpcadmin"
      key                   = { type = "entered", value = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB7Zk2wYqFv3Jc0pX1n9fQz4T0Ew8dM2rHk5sLq6uVtO hpcadmin" }
      ccVMName              = "ccw-cyclecloud-vm"
      ccVMSize              = "Standard_D4as_v5"
      resourceGroup         = "rg-ccw"
      schedFilesystem       = { type = "nfs-new", nfsCapacityInGb = 1024 }
      sharedFilesystem      = { type = "nfs-new", nfsCapacityInGb = 1024 }
      network               = { type = "new", addressSpace = "10.0.0.0/24" }
      storagePrivateDnsZone = { type = "new" }
      schedulerNode         = { sku = "Standard_D4as_v5", osImage = "cycle.image.ubuntu22" }
      loginNodes            = { sku = "Standard_D2as_v5", osImage = "cycle.image.ubuntu22", initialNodes = 1, maxNodes = 1 }
      tags                  = {}
      hpc                   = { sku = "Standard_HB176rs_v4", osImage = "cycle.image.ubuntu24", maxNodes = 1 }
    }
  }

  expect_failures = [var.ccws_parameters]
}

run "workspace_requires_the_admin_password" {
  command = plan

  variables {
    ccws_admin_password = null
  }

  expect_failures = [output.ccws_parameters_json]
}

run "no_workspace_file_without_its_parameters" {
  command = plan

  variables {
    ccws_parameters     = null
    ccws_admin_password = null
  }

  assert {
    condition     = output.ccws_parameters_json == null && length(jsondecode(output.ccws_partitions_json)) == 3 && length(azurerm_subscription_template_deployment.ccws) == 0 && output.deployment_id == null
    error_message = "Without ccws_parameters only the partitions fragment should be produced, and nothing deployed."
  }
}

run "availability_zones" {
  command = plan

  variables {
    availability_zones = { hpc = ["1"], htc = ["2", "3"] }
  }

  assert {
    condition     = jsondecode(output.ccws_parameters_json).parameters.hpc.value.availabilityZone == ["1"] && jsondecode(output.ccws_parameters_json).parameters.htc.value.availabilityZone == ["2", "3"] && !can(jsondecode(output.ccws_parameters_json).parameters.gpu.value.availabilityZone)
    error_message = "Zones should reach the workspace's partitions that have them, and only those."
  }

  assert {
    condition     = jsondecode(output.slurm_cluster_parameters_json).DefineNodesAvailabilityZone == true && jsondecode(output.slurm_cluster_parameters_json).HPCAvailabilityZone == ["1"] && jsondecode(output.slurm_cluster_parameters_json).HTCAvailabilityZone == ["2", "3"] && !can(jsondecode(output.slurm_cluster_parameters_json).GPUAvailabilityZone)
    error_message = "Zones should reach the cluster with DefineNodesAvailabilityZone: ${output.slurm_cluster_parameters_json}"
  }
}

# An InfiniBand partition keeps its jobs' VMs on one fabric: of the zones
# given it takes the first; an htc partition takes them all.
run "infiniband_partition_stays_in_one_zone" {
  command = plan

  variables {
    availability_zones = { hpc = ["1", "2", "3"], htc = ["2", "3"] }
  }

  assert {
    condition     = output.partitions.hpc.rdma && jsonencode(output.partitions.hpc.availability_zones) == jsonencode(["1"]) && jsonencode(output.partitions.htc.availability_zones) == jsonencode(["2", "3"])
    error_message = "The InfiniBand partition should stay in one zone: ${jsonencode(output.partitions.hpc.availability_zones)}"
  }
}

run "availability_zones_match_the_workspace_template" {
  command = plan

  module {
    source = "./tests/ccws_template_check"
  }

  variables {
    template        = jsondecode(file("tests/testdata/ccws_mainTemplate.json"))
    parameters_json = run.availability_zones.ccws_parameters_json
  }

  assert {
    condition     = output.problems == []
    error_message = "The workspace would reject the zones: ${join(" ", output.problems)}"
  }
}

run "availability_zones_are_checked" {
  command = plan

  variables {
    availability_zones = { gpu = ["4"] }
  }

  expect_failures = [var.availability_zones]
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

  # One InfiniBand job must stay within one scale set: the hpc job spans VMs
  # over InfiniBand, so the smaller of the InfiniBand partitions' limits
  # (each size's span in a single placement group: 300 on HB, 100 on ND
  # H100) becomes HPCMaxScalesetSize and holds the job.
  assert {
    condition     = output.partitions.hpc.max_scaleset_size != null && output.partitions.hpc.nodes_per_job > 1 && jsondecode(output.slurm_cluster_parameters_json).HPCMaxScalesetSize == min([for p in values(output.partitions) : p.max_scaleset_size if p.max_scaleset_size != null]...) && output.partitions.hpc.nodes_per_job <= jsondecode(output.slurm_cluster_parameters_json).HPCMaxScalesetSize
    error_message = "HPCMaxScalesetSize should be the InfiniBand partitions' scale set limit and hold one job: ${output.slurm_cluster_parameters_json}"
  }

  assert {
    condition     = jsondecode(output.slurm_cluster_parameters_json).Region == "eastus" && output.slurm_cluster_missing_parameters == tolist(["Credentials", "SubnetId"]) && !can(jsondecode(output.slurm_cluster_parameters_json).SubnetId)
    error_message = "Without cluster_subnet_id and cyclecloud_credentials the file should say it lacks them: ${jsonencode(output.slurm_cluster_missing_parameters)}"
  }

  assert {
    condition     = jsondecode(output.slurm_cluster_parameters_json).HTCUseLowPrio == true && jsondecode(output.slurm_cluster_parameters_json).GPUImageName == output.partitions.gpu.os_image
    error_message = "HTC Spot and the images should reach the cluster: ${output.slurm_cluster_parameters_json}"
  }
}

run "slurm_cluster_parameters_match_the_slurm_template" {
  command = plan

  module {
    source = "./tests/slurm_template_check"
  }

  variables {
    template        = jsondecode(file("tests/testdata/slurm_parameters.json"))
    parameters_json = run.slurm_cluster_parameters_file.slurm_cluster_parameters_json
  }

  assert {
    condition     = output.problems == []
    error_message = "The Slurm template would not take the file: ${join(" ", output.problems)}"
  }

  assert {
    condition     = output.missing == run.slurm_cluster_parameters_file.slurm_cluster_missing_parameters
    error_message = "slurm_cluster_missing_parameters should be what the template needs and the file lacks: ${jsonencode(output.missing)}"
  }

  # Each node array's machine type, image and node limit come from the
  # parameters the template reads for it.
  assert {
    condition = alltrue([
      for p in ["hpc", "gpu", "htc"] : output.given[jsondecode(file("tests/testdata/slurm_parameters.json")).nodearrays[p].MachineType] == run.slurm_cluster_parameters_file.partitions[p].machine_type
      && output.given[jsondecode(file("tests/testdata/slurm_parameters.json")).nodearrays[p].ImageName] == run.slurm_cluster_parameters_file.partitions[p].os_image
      && output.given[jsondecode(file("tests/testdata/slurm_parameters.json")).nodearrays[p].MaxCount] == run.slurm_cluster_parameters_file.partitions[p].max_nodes
    ])
    error_message = "Each node array should get its partition's machine type, image and node limit."
  }
}

run "slurm_cluster_parameters_complete" {
  command = plan

  variables {
    cluster_subnet_id      = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-ccw/providers/Microsoft.Network/virtualNetworks/vnet-ccw/subnets/compute"
    cyclecloud_credentials = "azure"
  }

  assert {
    condition     = jsondecode(output.slurm_cluster_parameters_json).SubnetId == "rg-ccw/vnet-ccw/compute" && jsondecode(output.slurm_cluster_parameters_json).Credentials == "azure" && length(output.slurm_cluster_missing_parameters) == 0
    error_message = "The subnet ID should be shortened to resource-group/vnet/subnet and the file be complete: ${output.slurm_cluster_parameters_json}"
  }
}

run "complete_slurm_cluster_parameters_match_the_slurm_template" {
  command = plan

  module {
    source = "./tests/slurm_template_check"
  }

  variables {
    template        = jsondecode(file("tests/testdata/slurm_parameters.json"))
    parameters_json = run.slurm_cluster_parameters_complete.slurm_cluster_parameters_json
  }

  assert {
    condition     = length(output.problems) == 0 && length(output.missing) == 0
    error_message = "The Slurm template should take the complete file as is: ${join(" ", output.problems)} missing ${jsonencode(output.missing)}"
  }
}

# A list of machine types where one is due (only DynamicMachineType is
# multi-select), a scale set size below 1, a key the template lacks, a zone
# without DefineNodesAvailabilityZone, a full subnet ID.
run "slurm_check_rejects_what_the_template_does_not_take" {
  command = plan

  module {
    source = "./tests/slurm_template_check"
  }

  variables {
    template = jsondecode(file("tests/testdata/slurm_parameters.json"))
    parameters_json = jsonencode({
      HPCMachineType      = ["Standard_HB176rs_v4", "Standard_HB176-96rs_v4"]
      DynamicMachineType  = ["Standard_F64s_v2", "Standard_F72s_v2"]
      HPCMaxScalesetSize  = 0
      HPCSlurmHPC         = true
      HPCAvailabilityZone = ["1"]
      SubnetId            = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-ccw/providers/Microsoft.Network/virtualNetworks/vnet-ccw/subnets/compute"
      Region              = "eastus"
    })
  }

  assert {
    condition = sort(output.problems) == sort([
      "HPCSlurmHPC is not a parameter of the Slurm template.",
      "HPCMachineType is a list, but the template's HPCMachineType takes one machine type (it is not Config.MultiSelect).",
      "HPCMaxScalesetSize is 0, below the template's minimum 1.",
      "SubnetId is \"/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-ccw/providers/Microsoft.Network/virtualNetworks/vnet-ccw/subnets/compute\", not resource-group/virtual-network/subnet.",
      "HPCAvailabilityZone is set, but the template uses it only with DefineNodesAvailabilityZone = true.",
    ])
    error_message = "The check should reject exactly these: ${join(" ", output.problems)}"
  }

  assert {
    condition     = output.missing == tolist(["Credentials"])
    error_message = "Credentials has no default in the template and should be missing: ${jsonencode(output.missing)}"
  }
}

# Fallbacks: sizes the partition's one machine type may switch to, with the
# chosen size's CPU architecture and image. ND GB200 v6 (arm64, no documented
# image) is ranked for this job too, so a list of all ranked sizes would hold
# it next to ND H100 v5.
run "fallback_machine_types_share_architecture_and_image" {
  command = plan

  assert {
    condition     = contains(data.hpcsku_recommendation.gpu.vm_sizes, "Standard_ND128isr_NDR_GB200_v6") && !contains(output.fallback_machine_types.gpu, "Standard_ND128isr_NDR_GB200_v6")
    error_message = "The gpu fallbacks should leave out ND GB200 v6 (arm64, another image): ${jsonencode(output.fallback_machine_types.gpu)}"
  }

  assert {
    condition = alltrue(flatten([
      for name, r in { hpc = data.hpcsku_recommendation.hpc, gpu = data.hpcsku_recommendation.gpu, htc = data.hpcsku_recommendation.htc } : [
        for size in output.fallback_machine_types[name] : [
          for rec in r.recommendations : rec.deployment.cpu_architecture == r.recommendations[0].deployment.cpu_architecture && rec.deployment.image_urn == r.recommendations[0].deployment.image_urn
          if rec.vm_size == size
        ]
      ]
    ]))
    error_message = "Every fallback should have the chosen size's CPU architecture and image: ${jsonencode(output.fallback_machine_types)}"
  }

  assert {
    condition     = alltrue([for name, r in { hpc = data.hpcsku_recommendation.hpc, gpu = data.hpcsku_recommendation.gpu, htc = data.hpcsku_recommendation.htc } : output.fallback_machine_types[name][0] == r.vm_size && length(setsubtract(output.fallback_machine_types[name], r.vm_sizes)) == 0 && length(output.fallback_machine_types[name]) >= (name == "htc" ? 1 : 2)])
    error_message = "Each list should start with the chosen size and hold only ranked sizes: ${jsonencode(output.fallback_machine_types)}"
  }
}

# The GB200 as the gpu partition's top pick (pinned with prefer): arm64
# Grace CPUs and the arm64 ubuntu-hpc:2404-gb image (catalog decision D54),
# which reaches both parameter files; its fallbacks share that image, and its
# scale sets take no single placement group (D55), so no HPCMaxScalesetSize
# is asked of them.
run "gb200_top_pick_gets_its_arm64_image" {
  command = plan

  variables {
    prefer = { gpu = ["Standard_ND128isr_NDR_GB200_v6"] }
  }

  assert {
    condition     = strcontains(output.partitions.gpu.machine_type, "GB200") && output.partitions.gpu.cpu_architecture == "arm64"
    error_message = "The gpu partition's top pick should be the GB200: ${jsonencode(output.partitions.gpu)}"
  }

  assert {
    condition     = output.partitions.gpu.os_image == "microsoft-dsvm:ubuntu-hpc:2404-gb:latest" && output.partitions.gpu.recommended_image == output.partitions.gpu.os_image
    error_message = "The GB200 should get the arm64 2404-gb image: ${jsonencode(output.partitions.gpu)}"
  }

  assert {
    condition     = jsondecode(output.ccws_parameters_json).parameters.gpu.value.osImage == output.partitions.gpu.os_image && jsondecode(output.slurm_cluster_parameters_json).GPUImageName == output.partitions.gpu.os_image
    error_message = "The image should reach both files."
  }

  assert {
    condition     = output.fallback_machine_types.gpu[0] == output.partitions.gpu.machine_type && alltrue([for size in output.fallback_machine_types.gpu : strcontains(size, "GB")])
    error_message = "The GB200's fallbacks should share its arm64 image: ${jsonencode(output.fallback_machine_types.gpu)}"
  }

  assert {
    condition     = output.partitions.gpu.max_scaleset_size == null
    error_message = "A GB200 partition takes no single placement group, so no scale set size: ${jsonencode(output.partitions.gpu)}"
  }
}

# The NC RTX PRO 6000 BSE v6 has no documented Marketplace image (it needs a
# GRID v20 build): without os_images the plan must stop rather than give it
# the datacenter-driver image.
run "image_required_where_none_is_documented" {
  command = plan

  variables {
    gpu_model_parameters_billion = 1
    prefer                       = { gpu = ["Standard_NC144lds_xl_RTXPRO6000BSE_v6"] }
  }

  expect_failures = [data.hpcsku_recommendation.gpu]
}

run "image_override" {
  command = plan

  variables {
    gpu_model_parameters_billion = 1
    prefer                       = { gpu = ["Standard_NC144lds_xl_RTXPRO6000BSE_v6"] }
    os_images                    = { gpu = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-images/providers/Microsoft.Compute/galleries/hpc/images/ubuntu-hpc-2404-ncv6/versions/1.0.0" }
  }

  assert {
    condition     = output.partitions.gpu.machine_type == "Standard_NC144lds_xl_RTXPRO6000BSE_v6" && output.partitions.gpu.recommended_image == null && output.partitions.gpu.os_image == var.os_images.gpu
    error_message = "The gpu partition should run the RTX PRO 6000 size on the given image: ${jsonencode(output.partitions.gpu)}"
  }

  assert {
    condition     = jsondecode(output.ccws_parameters_json).parameters.gpu.value.osImage == var.os_images.gpu && jsondecode(output.slurm_cluster_parameters_json).GPUImageName == var.os_images.gpu
    error_message = "The given image should reach both files."
  }

  assert {
    condition     = output.fallback_machine_types.gpu == tolist(["Standard_NC144lds_xl_RTXPRO6000BSE_v6"])
    error_message = "A size without a documented image should have no fallbacks: ${jsonencode(output.fallback_machine_types.gpu)}"
  }

  assert {
    condition     = output.partitions.hpc.os_image == data.hpcsku_recommendation.hpc.recommendations[0].deployment.image_urn
    error_message = "Partitions without an override should keep their recommended image."
  }
}

run "image_override_is_checked" {
  command = plan

  variables {
    os_images = { htc = "ubuntu 24.04" }
  }

  expect_failures = [var.os_images]
}

# InfiniBand VMs of one job must share one scale set with a single placement
# group: a scale set size below the job's VMs, or above the placement
# group's limit, stops the plan.
run "one_infiniband_job_must_fit_one_scale_set" {
  command = plan

  variables {
    hpc_max_scaleset_size = 2
  }

  expect_failures = [data.hpcsku_recommendation.hpc, data.hpcsku_recommendation.gpu]
}

run "scale_set_size_within_a_placement_group" {
  command = plan

  variables {
    hpc_max_scaleset_size = 301
  }

  expect_failures = [data.hpcsku_recommendation.hpc, data.hpcsku_recommendation.gpu]
}

run "scale_set_size_given" {
  command = plan

  variables {
    hpc_max_scaleset_size = 50
  }

  assert {
    condition     = jsondecode(output.slurm_cluster_parameters_json).HPCMaxScalesetSize == 50
    error_message = "The given HPCMaxScalesetSize should reach the cluster."
  }
}

run "deploys_the_workspace_when_given_its_template" {
  command = plan

  variables {
    ccws_template_file = "tests/testdata/ccws_mainTemplate.json"
  }

  assert {
    condition     = jsondecode(azurerm_subscription_template_deployment.ccws[0].parameters_content).gpu.value.sku == data.hpcsku_recommendation.gpu.vm_size && jsondecode(azurerm_subscription_template_deployment.ccws[0].parameters_content).gpu.value.osImage == output.partitions.gpu.os_image
    error_message = "The deployment should get the sized partitions."
  }

  assert {
    condition     = jsondecode(azurerm_subscription_template_deployment.ccws[0].template_content).metadata.source.parameters == "Azure/cyclecloud-slurm-workspace:bicep/mainTemplate.bicep@bc0fc1b76f1141a9e1a77ac7cb9474e39783df89"
    error_message = "The deployment should be planned with the transcribed template."
  }
}

run "deploying_needs_the_workspace_parameters" {
  command = plan

  variables {
    ccws_template_file  = "tests/testdata/ccws_mainTemplate.json"
    ccws_parameters     = null
    ccws_admin_password = null
  }

  expect_failures = [azurerm_subscription_template_deployment.ccws]
}
