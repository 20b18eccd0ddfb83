# Landing-zone guardrails for Azure VM sizes.
#
# A workload team names the sizes it wants, one per partition. This module
# looks each one up in the hpcsku catalog and fails the plan, before anything
# is applied, when a size
#
#   * is retired,
#   * retires within `retirement_horizon_months` of the provider's `as_of` date
#     (on or before the horizon's last day, as `retires_within` counts),
#   * has no RDMA (InfiniBand) although the partition runs tightly coupled jobs
#     across VMs, or
#   * is not supported by the partition's target (AKS, CycleCloud, Azure ML, Batch), or
#   * cannot hold the partition's model in GPU memory: on its nodes together
#     when they run one job, on each VM when its jobs are independent.
#
# Each message names the partition, the size, the rule and what to use
# instead. It needs only the hpcsku provider: no Azure credentials, no network,
# so it runs in any CI job, and `terraform test` proves it (see tests/).
#
# The lifecycle rules read `hpcsku_sku`, which judges at the provider's `as_of`
# date, so a CI plan gives the same answer every day. The provider functions
# (Terraform 1.8+) estimate GPU memory, validate the model input and, in the
# `today` check, judge lifecycles at today's date, which a pinned `as_of`
# hides.
#
# The module has no provider block: the caller's `provider "hpcsku"` (with
# `as_of` pinned in CI) is used.

data "hpcsku_sku" "partition" {
  for_each = var.partitions

  name = each.value.vm_size
}

locals {
  # The provider's date, the same for every lookup.
  as_of = one(distinct([for s in data.hpcsku_sku.partition : s.as_of]))

  # The horizon's last day, as the provider computes it (retires_within,
  # min_lifetime_months): `as_of` plus the months, keeping the day of the
  # month; a day the month lacks rolls over into the next month (31 December
  # plus 6 months is 1 July, 31 August plus 6 months 2 March of a leap year).
  as_of_parts = [for part in split("-", local.as_of) : tonumber(part)]
  # Months since year 0 of the horizon's month, and that month's days.
  horizon_months = local.as_of_parts[0] * 12 + local.as_of_parts[1] - 1 + var.retirement_horizon_months
  horizon_year   = floor(local.horizon_months / 12)
  horizon_leap   = local.horizon_year % 4 == 0 && (local.horizon_year % 100 != 0 || local.horizon_year % 400 == 0)
  horizon_month_days = (
    [31, local.horizon_leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][local.horizon_months % 12]
  )
  horizon_rolls = local.as_of_parts[2] > local.horizon_month_days
  horizon_date = format("%04d-%02d-%02d",
    floor((local.horizon_months + (local.horizon_rolls ? 1 : 0)) / 12),
    (local.horizon_months + (local.horizon_rolls ? 1 : 0)) % 12 + 1,
    local.horizon_rolls ? local.as_of_parts[2] - local.horizon_month_days : local.as_of_parts[2],
  )
  # The same date as a number, YYYYMMDD, so that dates compare numerically.
  horizon_yyyymmdd = tonumber(replace(local.horizon_date, "-", ""))

  # Support targets the catalog records; plain VMs and scale sets take every size.
  support_targets = ["aks", "cyclecloud", "azureml", "batch"]
  target_names = {
    vm         = "a virtual machine"
    vmss       = "a virtual machine scale set"
    aks        = "AKS"
    cyclecloud = "CycleCloud"
    azureml    = "Azure Machine Learning"
    batch      = "Azure Batch"
  }

  # Whether a partition's VMs run one job together (MPI, NCCL) and so pool
  # their GPU memory for one copy of the model: as stated, else when it has
  # more than one VM. Independent jobs each hold the whole model on one VM.
  tightly_coupled = {
    for key, p in var.partitions : key => p.tightly_coupled == null ? p.nodes > 1 : p.tightly_coupled
  }

  # One object per partition with the facts the rules need.
  partitions = {
    for key, p in var.partitions : key => {
      requested          = p.vm_size
      vm_size            = data.hpcsku_sku.partition[key].sku.name
      nodes              = p.nodes
      tightly_coupled    = local.tightly_coupled[key]
      target             = coalesce(p.target, var.target)
      retired            = data.hpcsku_sku.partition[key].retired
      status             = data.hpcsku_sku.partition[key].sku.lifecycle.status
      retirement_date    = data.hpcsku_sku.partition[key].sku.lifecycle.retirement_date
      replacements       = data.hpcsku_sku.partition[key].replacements
      replacement_series = data.hpcsku_sku.partition[key].sku.lifecycle.replacement_series
      rdma               = data.hpcsku_sku.partition[key].sku.network.rdma
      infiniband         = data.hpcsku_sku.partition[key].sku.network.infiniband
      gpu_memory_gib     = coalesce(try(data.hpcsku_sku.partition[key].sku.gpu.memory_gib_total, null), 0)
      model              = p.model
      # The engine's estimate, the one hpcsku_recommendation sizes with.
      model_gpu_memory_gib = (
        p.model == null ? null :
        provider::hpcsku::gpu_memory_gib(p.model.parameters_billion, p.model.precision, p.model.workload)
      )
      # The VMs whose GPU memory one copy of the model may use.
      model_vms = local.tightly_coupled[key] ? p.nodes : 1
      support = (
        contains(local.support_targets, coalesce(p.target, var.target))
        ? data.hpcsku_sku.partition[key].sku.support[coalesce(p.target, var.target)]
        : { status = "supported", note = null }
      )
    }
  }

  # What to use instead, for the messages.
  instead = {
    for key, p in local.partitions : key => (
      length(p.replacements) > 0 ? "Use ${join(" or ", p.replacements)} instead." : (
        length(p.replacement_series) > 0 ? "Move to the replacement series: ${join("; ", p.replacement_series)}." :
        "The catalog names no replacement."
      )
    )
  }

  # As provider::hpcsku::retires_within and min_lifetime_months count: a
  # retirement on the horizon's last day is within it.
  retires_within_horizon = {
    for key, p in local.partitions : key => (
      !p.retired && p.retirement_date != null
      ? tonumber(replace(coalesce(p.retirement_date, "0"), "-", "")) <= local.horizon_yyyymmdd
      : false
    )
  }

  # What the gpu_memory rule tells a partition to change: more VMs for one
  # job, or, where the jobs are independent, larger VMs or one job sharded
  # over several.
  gpu_memory_advice = {
    for key, p in local.partitions : key => (
      p.gpu_memory_gib == 0 || p.model == null ? "Choose a GPU size." : (
        var.partitions[key].tightly_coupled == false
        ? "Choose a size with more GPU memory per VM, or set tightly_coupled = true to shard the model over at least ${ceil(p.model_gpu_memory_gib / p.gpu_memory_gib)} VMs."
        : "Use at least ${ceil(p.model_gpu_memory_gib / p.gpu_memory_gib)} nodes, or a size with more GPU memory."
      )
    )
  }

  # Hard findings: each one fails the plan when `enforce` is true.
  violations = {
    retired = [
      for key, p in local.partitions :
      "Partition \"${key}\": ${p.vm_size} retired on ${p.retirement_date}; new VMs of this size cannot be created. ${local.instead[key]}"
      if p.retired
    ]
    retiring = [
      for key, p in local.partitions :
      "Partition \"${key}\": ${p.vm_size} retires on ${p.retirement_date}, within the ${var.retirement_horizon_months}-month horizon (on or before ${local.horizon_date}). ${local.instead[key]}"
      if local.retires_within_horizon[key]
    ]
    rdma = [
      for key, p in local.partitions :
      "Partition \"${key}\": ${p.nodes} tightly coupled VMs need RDMA (InfiniBand) between them, and ${p.vm_size} has none. Choose an RDMA size (HB, HC, HX, ND with InfiniBand; names with an \"r\"), or set tightly_coupled = false for independent jobs."
      if p.nodes > 1 && p.tightly_coupled && !p.rdma
    ]
    support = [
      for key, p in local.partitions :
      "Partition \"${key}\": ${p.vm_size} is not supported on ${local.target_names[p.target]}${p.support.note != null ? " (${p.support.note})" : ""}. Choose a size ${local.target_names[p.target]} supports."
      if !p.retired && p.support.status == "unsupported"
    ]
    gpu_memory = [
      for key, p in local.partitions :
      format("Partition \"%s\": %s of a %gB-parameter model in %s needs about %.0f GiB of GPU memory; %s. %s",
        key, replace(p.model.workload, "_", "-"), p.model.parameters_billion, p.model.precision, p.model_gpu_memory_gib,
        p.model_vms == p.nodes
        ? format("%d x %s has %g GiB", p.nodes, p.vm_size, p.gpu_memory_gib * p.nodes)
        : format("each of the %d independent VMs of %s has %g GiB", p.nodes, p.vm_size, p.gpu_memory_gib),
        local.gpu_memory_advice[key],
      )
      if p.model != null && p.gpu_memory_gib * p.model_vms < coalesce(p.model_gpu_memory_gib, 0)
    ]
  }
  all_violations = flatten(values(local.violations))

  # Soft findings: warnings only, never a failed plan.
  advisories = concat(
    [
      for key, p in local.partitions :
      "Partition \"${key}\": whether ${local.target_names[p.target]} supports ${p.vm_size} is unknown${p.support.note != null ? " (${p.support.note})" : ""}; check before relying on it."
      if !p.retired && p.support.status == "unknown"
    ],
    [
      for key, p in local.partitions :
      "Partition \"${key}\": ${p.vm_size} retires on ${p.retirement_date}, after the horizon. ${local.instead[key]}"
      if !p.retired && p.retirement_date != null && !local.retires_within_horizon[key]
    ],
  )

  # At today's date, through the provider functions: sizes the pinned `as_of`
  # does not flag yet.
  today = [
    for key, p in local.partitions :
    "Partition \"${key}\": as of today, ${p.vm_size} ${provider::hpcsku::is_retired(p.vm_size) ? "is retired" : "retires within ${var.retirement_horizon_months} months"}; the provider's as_of date (${local.as_of}) does not show it yet. Move as_of forward, and move off the size."
    if var.check_today && !p.retired && !local.retires_within_horizon[key] && provider::hpcsku::retires_within(p.vm_size, var.retirement_horizon_months)
  ]
}

# In report-only mode (`enforce = false`) the same findings surface as
# warnings. Check blocks never fail a plan on their own.
check "guardrails" {
  assert {
    condition     = var.enforce || length(local.all_violations) == 0
    error_message = "Size guardrails (report only):\n${join("\n", local.all_violations)}"
  }
}

check "advisories" {
  assert {
    condition     = length(local.advisories) == 0
    error_message = "Size advisories:\n${join("\n", local.advisories)}"
  }
}

check "today" {
  assert {
    condition     = length(local.today) == 0
    error_message = "Sizes that retire by today's date:\n${join("\n", local.today)}"
  }
}
