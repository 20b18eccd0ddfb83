variable "partitions" {
  description = <<-EOT
    The sizes a workload team chose, one entry per partition (a Slurm partition, an AKS node pool,
    a scale set). `vm_size` is the Azure size name (case-insensitive; the `Standard_` prefix may be
    left out). `nodes` is how many VMs one job spans (default 1). `tightly_coupled` says whether
    those VMs talk over MPI/NCCL and so need RDMA (default: true when `nodes` > 1); it also says
    whether they pool their GPU memory for one copy of the model, or each VM must hold it. `target`
    overrides the module's `target` for this partition. `model`, when given, is the model the
    partition's GPUs must hold: `parameters_billion` (above 0, at most 100000), `precision` (default
    `bf16`) and `workload` (`training`, the default, `fine_tuning` or `inference`); training needs a
    precision that can train (not `fp4`, `int8` or `int4`).
  EOT
  type = map(object({
    vm_size         = string
    nodes           = optional(number, 1)
    tightly_coupled = optional(bool)
    target          = optional(string)
    model = optional(object({
      parameters_billion = number
      precision          = optional(string, "bf16")
      workload           = optional(string, "training")
    }))
  }))

  validation {
    condition     = length(var.partitions) > 0
    error_message = "Give at least one partition."
  }

  validation {
    condition     = alltrue([for p in values(var.partitions) : length(trimspace(p.vm_size)) > 0])
    error_message = "Every partition needs a vm_size."
  }

  validation {
    condition     = alltrue([for p in values(var.partitions) : p.nodes >= 1 && floor(p.nodes) == p.nodes])
    error_message = "nodes must be a whole number of at least 1."
  }

  validation {
    condition = alltrue([
      for p in values(var.partitions) :
      p.target == null || contains(["vm", "vmss", "aks", "cyclecloud", "azureml", "batch"], coalesce(p.target, "vm"))
    ])
    error_message = "A partition's target must be one of vm, vmss, aks, cyclecloud, azureml, batch."
  }

  # The provider's own estimate validates the model: it fails for a size
  # outside (0, 100000], an unknown precision or workload, and training in
  # a precision that cannot train (fp4, int8, int4).
  validation {
    condition = alltrue([
      for p in values(var.partitions) :
      p.model == null || can(provider::hpcsku::gpu_memory_gib(p.model.parameters_billion, p.model.precision, p.model.workload))
    ])
    error_message = "A partition's model needs parameters_billion greater than 0 and at most 100000, a precision of fp32, tf32, bf16, fp16, fp8, fp4, int8 or int4, and a workload of training (the default), fine_tuning or inference. Training runs in fp32, tf32, bf16, fp16 or fp8: for a model in fp4, int8 or int4 set workload = \"fine_tuning\" (adapters on the quantised model) or \"inference\"."
  }
}

variable "target" {
  description = "Where the sizes run, unless a partition says otherwise: `vm`, `vmss`, `aks`, `cyclecloud`, `azureml` or `batch`. Sizes the target does not support fail the plan; sizes whose support is unknown raise a warning."
  type        = string
  default     = "cyclecloud"

  validation {
    condition     = contains(["vm", "vmss", "aks", "cyclecloud", "azureml", "batch"], var.target)
    error_message = "target must be one of vm, vmss, aks, cyclecloud, azureml, batch."
  }
}

variable "retirement_horizon_months" {
  description = "Fail the plan for a size that retires within this many months of the provider's `as_of` date. Retired sizes always fail. `0` checks retired sizes only."
  type        = number
  default     = 12

  validation {
    condition     = var.retirement_horizon_months >= 0 && var.retirement_horizon_months <= 120 && floor(var.retirement_horizon_months) == var.retirement_horizon_months
    error_message = "retirement_horizon_months must be a whole number from 0 to 120."
  }
}

variable "check_today" {
  description = "Also warn, through the `today` check block, when a size is retired or retires within the horizon at today's date, which a pinned `as_of` hides. Uses the provider functions `is_retired` and `retires_within`, which always judge at today's date in UTC."
  type        = bool
  default     = true
}

variable "enforce" {
  description = "When `true` (the default) a violated guardrail fails the plan. When `false` the module only reports: the `violations` output lists them and a `check` block raises them as warnings, which suits a first run over existing configurations."
  type        = bool
  default     = true
}
