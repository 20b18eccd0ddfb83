# Proves each guardrail fires, with a message that names what to do, and that
# current sizes pass.
#
# Offline: the only provider is hpcsku, and every run is a plan. The date is
# pinned so that the retirement rules give the same answer on any day. The
# `today` check judges at the real date (provider functions cannot see
# `as_of`), so runs whose sizes retire at a future date turn it off, and the run
# that tests it uses a size that retired in 2025.
#
# A run with `expect_failures = [output.vm_sizes]` passes only when the plan
# fails on one of that output's preconditions; its asserts, which still run,
# pin which rule fired and what the message says.

provider "hpcsku" {
  as_of = "2026-11-22"
}

# HC44rs and HBv2 retire on 2027-05-31: 12 months after 2026-05-31 to the
# day, and a day more after 2026-05-30.
provider "hpcsku" {
  alias = "horizon_day"
  as_of = "2026-05-31"
}

provider "hpcsku" {
  alias = "day_before"
  as_of = "2026-05-30"
}

# Month ends, where a horizon's day of the month can be missing.
provider "hpcsku" {
  alias = "year_end"
  as_of = "2026-12-31"
}

provider "hpcsku" {
  alias = "leap_horizon"
  as_of = "2027-08-31"
}

# A CI pipeline whose pinned date has fallen far behind.
provider "hpcsku" {
  alias = "stale"
  as_of = "2024-01-01"
}

# A CycleCloud Slurm cluster with current sizes.
variables {
  partitions = {
    hpc = { vm_size = "Standard_HB176rs_v4", nodes = 8 }
    gpu = { vm_size = "Standard_ND96isr_H100_v5", nodes = 2 }
    htc = { vm_size = "Standard_HB120rs_v3" }
  }
}

run "current_sizes_pass" {
  command = plan

  assert {
    condition = output.vm_sizes == {
      hpc = "Standard_HB176rs_v4"
      gpu = "Standard_ND96isr_H100_v5"
      htc = "Standard_HB120rs_v3"
    }
    error_message = "The approved sizes should be the requested ones."
  }

  assert {
    condition     = length(flatten(values(output.violations))) == 0 && length(output.advisories) == 0
    error_message = "Current sizes should raise nothing: ${jsonencode(output.violations)} ${jsonencode(output.advisories)}"
  }

  assert {
    condition     = output.horizon_date == "2027-11-22"
    error_message = "The default horizon should end 12 months after as_of."
  }
}

# Standard_NC24rs_v3 is still the default GPU machine type of CycleCloud's
# Slurm template; it retired on 2025-09-30.
run "ccws_default_gpu_size_rejected" {
  command = plan

  variables {
    partitions = {
      hpc = { vm_size = "Standard_HB176rs_v4", nodes = 8 }
      gpu = { vm_size = "Standard_NC24rs_v3" }
    }
  }

  expect_failures = [output.vm_sizes]

  assert {
    condition     = output.violations.retired == ["Partition \"gpu\": Standard_NC24rs_v3 retired on 2025-09-30; new VMs of this size cannot be created. Use Standard_NC80adis_H100_v5 instead."]
    error_message = "The retired rule should name the replacement: ${jsonencode(output.violations)}"
  }

  assert {
    condition     = length(output.violations.support) == 0 && length(output.violations.retiring) == 0
    error_message = "A retired size should be reported once, as retired."
  }
}

# Report-only mode: the same finding is a warning (a check block), the plan succeeds.
run "report_only_mode_warns" {
  command = plan

  variables {
    enforce = false
    partitions = {
      gpu = { vm_size = "Standard_NC24rs_v3" }
    }
  }

  expect_failures = [check.guardrails]

  assert {
    condition     = output.vm_sizes.gpu == "Standard_NC24rs_v3" && length(output.violations.retired) == 1
    error_message = "Report-only mode should pass the size through and still list the violation."
  }
}

run "size_name_is_case_insensitive" {
  command = plan

  variables {
    partitions = {
      gpu = { vm_size = "nd96isr_h100_v5" }
    }
  }

  assert {
    condition     = output.vm_sizes.gpu == "Standard_ND96isr_H100_v5"
    error_message = "The canonical name should be returned."
  }
}

# HBv2 retires on 2027-05-31, inside a 12-month horizon from 2026-11-22.
run "size_retiring_within_horizon_rejected" {
  command = plan

  variables {
    partitions = {
      hpc = { vm_size = "Standard_HB120rs_v2", nodes = 4 }
    }
  }

  expect_failures = [output.vm_sizes]

  assert {
    condition     = output.violations.retiring == ["Partition \"hpc\": Standard_HB120rs_v2 retires on 2027-05-31, within the 12-month horizon (on or before 2027-11-22). Use Standard_HB176-144rs_v4 or Standard_HB120rs_v3 instead."]
    error_message = "The retiring rule should give the date and the replacements: ${jsonencode(output.violations)}"
  }
}

# Fsv2 retires on 2028-11-15: an advisory with 12 months, rejected with 24.
run "retirement_after_horizon_is_an_advisory" {
  command = plan

  variables {
    check_today = false # Fsv2 retires within 12 months of the real date from 2027-11-15 on.
    partitions = {
      htc = { vm_size = "Standard_F64s_v2" }
    }
  }

  expect_failures = [check.advisories]

  assert {
    condition     = output.vm_sizes.htc == "Standard_F64s_v2" && output.advisories == ["Partition \"htc\": Standard_F64s_v2 retires on 2028-11-15, after the horizon. Use Standard_F64als_v6 instead."]
    error_message = "A retirement after the horizon should pass with an advisory: ${jsonencode(output.advisories)}"
  }
}

# The horizon's last day is within it, as retires_within and
# min_lifetime_months count it.
run "retirement_on_the_horizon_day_rejected" {
  command = plan

  providers = {
    hpcsku = hpcsku.horizon_day
  }

  variables {
    target = "vm"
    partitions = {
      hpc = { vm_size = "Standard_HC44rs" }
    }
  }

  expect_failures = [output.vm_sizes]

  assert {
    condition     = output.horizon_date == "2027-05-31" && length(output.violations.retiring) == 1 && strcontains(output.violations.retiring[0], "Standard_HC44rs retires on 2027-05-31, within the 12-month horizon (on or before 2027-05-31)")
    error_message = "A retirement on the horizon's last day should be within it: ${jsonencode(output.violations)}"
  }
}

run "retirement_a_day_after_the_horizon_is_an_advisory" {
  command = plan

  providers = {
    hpcsku = hpcsku.day_before
  }

  variables {
    target      = "vm"
    check_today = false # HC44rs retires within 12 months of the real date.
    partitions = {
      hpc = { vm_size = "Standard_HC44rs" }
    }
  }

  expect_failures = [check.advisories]

  assert {
    condition     = output.horizon_date == "2027-05-30" && length(output.violations.retiring) == 0 && length(output.advisories) == 1
    error_message = "A retirement the day after the horizon should be an advisory: ${jsonencode(output.violations)} ${jsonencode(output.advisories)}"
  }
}

run "horizon_is_configurable" {
  command = plan

  variables {
    retirement_horizon_months = 24
    partitions = {
      htc = { vm_size = "Standard_F64s_v2" }
    }
  }

  expect_failures = [output.vm_sizes]

  assert {
    condition     = output.horizon_date == "2028-11-22" && length(output.violations.retiring) == 1
    error_message = "A 24-month horizon should reject a size retiring on 2028-11-15."
  }
}

# The horizon's last day is a real date, the one the provider's
# retires_within and min_lifetime_months count to: a day the month lacks
# rolls over into the next month, as Go's time.AddDate does.
run "horizon_of_a_month_end_rolls_over" {
  command = plan

  providers = {
    hpcsku = hpcsku.year_end
  }

  variables {
    retirement_horizon_months = 6
  }

  assert {
    condition     = output.horizon_date == "2027-07-01"
    error_message = "2026-12-31 plus 6 months should be 2027-07-01, not ${output.horizon_date}."
  }
}

run "horizon_in_february_rolls_over" {
  command = plan

  providers = {
    hpcsku = hpcsku.year_end
  }

  variables {
    retirement_horizon_months = 2
  }

  assert {
    condition     = output.horizon_date == "2027-03-03"
    error_message = "2026-12-31 plus 2 months should be 2027-03-03 (28 days in February 2027), not ${output.horizon_date}."
  }
}

run "horizon_in_a_leap_february_rolls_over" {
  command = plan

  providers = {
    hpcsku = hpcsku.leap_horizon
  }

  variables {
    retirement_horizon_months = 6
  }

  assert {
    condition     = output.horizon_date == "2028-03-02"
    error_message = "2027-08-31 plus 6 months should be 2028-03-02 (29 days in February 2028), not ${output.horizon_date}."
  }
}

run "horizon_zero_checks_retired_only" {
  command = plan

  variables {
    retirement_horizon_months = 0
    check_today               = false # HBv2 is retired at the real date from 2027-05-31 on.
    partitions = {
      hpc = { vm_size = "Standard_HB120rs_v2", nodes = 4 }
    }
  }

  # The retirement is still reported, as an advisory.
  expect_failures = [check.advisories]

  assert {
    condition     = output.vm_sizes.hpc == "Standard_HB120rs_v2" && output.horizon_date == "2026-11-22"
    error_message = "With a zero horizon only retired sizes should fail."
  }
}

# NC A100 v4 has no InfiniBand: fine for one VM, not for a 4-VM MPI job.
run "multi_node_without_rdma_rejected" {
  command = plan

  variables {
    partitions = {
      gpu = { vm_size = "Standard_NC96ads_A100_v4", nodes = 4 }
    }
  }

  expect_failures = [output.vm_sizes]

  assert {
    condition     = length(output.violations.rdma) == 1 && strcontains(output.violations.rdma[0], "4 tightly coupled VMs need RDMA (InfiniBand) between them, and Standard_NC96ads_A100_v4 has none")
    error_message = "Only the rdma rule should fire: ${jsonencode(output.violations)}"
  }
}

run "single_node_needs_no_rdma" {
  command = plan

  variables {
    partitions = {
      gpu = { vm_size = "Standard_NC96ads_A100_v4" }
    }
  }

  assert {
    condition     = output.vm_sizes.gpu == "Standard_NC96ads_A100_v4"
    error_message = "A single-VM partition needs no RDMA."
  }
}

run "multi_node_independent_jobs_need_no_rdma" {
  command = plan

  variables {
    partitions = {
      gpu = { vm_size = "Standard_NC96ads_A100_v4", nodes = 4, tightly_coupled = false }
    }
  }

  assert {
    condition     = length(output.violations.rdma) == 0
    error_message = "tightly_coupled = false should waive the RDMA rule."
  }
}

# NGads V620 is not supported on AKS; a plain VM takes it.
run "size_unsupported_by_target_rejected" {
  command = plan

  variables {
    target = "aks"
    partitions = {
      viz = { vm_size = "Standard_NG16ads_V620_v1" }
    }
  }

  expect_failures = [output.vm_sizes]

  assert {
    condition     = length(output.violations.support) == 1 && startswith(output.violations.support[0], "Partition \"viz\": Standard_NG16ads_V620_v1 is not supported on AKS")
    error_message = "The support rule should name the target: ${jsonencode(output.violations)}"
  }
}

# Azure Machine Learning is spelled `azureml`, as in hpcsku_recommendation's
# `target` and the catalog's `sku.support.azureml`. The Azure Machine Learning
# compute-target table lists ND H100 v5; it does not list HBv4, so whether
# Azure ML takes Standard_HB176rs_v4 is unknown: an advisory, not a failure.
run "azureml_target_reads_azureml_support" {
  command = plan

  variables {
    target = "azureml"
    partitions = {
      gpu = { vm_size = "Standard_ND96isr_H100_v5", nodes = 2 }
      hpc = { vm_size = "Standard_HB176rs_v4", nodes = 2 }
    }
  }

  expect_failures = [check.advisories]

  assert {
    condition     = output.partitions.gpu.support.status == "supported" && output.partitions.gpu.support == data.hpcsku_sku.partition["gpu"].sku.support.azureml
    error_message = "The gpu partition should read sku.support.azureml: ${jsonencode(output.partitions.gpu.support)}"
  }

  assert {
    condition     = output.advisories == ["Partition \"hpc\": whether Azure Machine Learning supports Standard_HB176rs_v4 is unknown (${data.hpcsku_sku.partition["hpc"].sku.support.azureml.note}); check before relying on it."]
    error_message = "Unknown Azure ML support should be an advisory naming Azure Machine Learning: ${jsonencode(output.advisories)}"
  }
}

# The old spelling is refused with the list of targets.
run "azure_ml_spelling_rejected" {
  command = plan

  variables {
    target = "azure_ml"
  }

  expect_failures = [var.target]
}

run "partition_target_overrides_module_target" {
  command = plan

  variables {
    target = "aks"
    partitions = {
      viz = { vm_size = "Standard_NV12ads_V710_v5", target = "vm" }
    }
  }

  assert {
    condition     = output.vm_sizes.viz == "Standard_NV12ads_V710_v5"
    error_message = "A partition's own target should override the module's."
  }
}

# Unknown support is a warning, not a failure: AKS documents no node pool
# of the NVads V710 v5 sizes (catalog decision D79).
run "unknown_support_is_an_advisory" {
  command = plan

  variables {
    target = "aks"
    partitions = {
      vis = { vm_size = "Standard_NV12ads_V710_v5" }
    }
  }

  expect_failures = [check.advisories]

  assert {
    condition     = length(output.advisories) == 1 && strcontains(output.advisories[0], "whether AKS supports Standard_NV12ads_V710_v5 is unknown")
    error_message = "Unknown support should be an advisory: ${jsonencode(output.advisories)}"
  }
}

# Several partitions fail at once; each is named.
run "every_violation_is_listed" {
  command = plan

  variables {
    partitions = {
      gpu = { vm_size = "Standard_NC24rs_v3" }
      hpc = { vm_size = "Standard_HB120rs_v2", nodes = 4 }
      mpi = { vm_size = "Standard_NC96ads_A100_v4", nodes = 2 }
    }
  }

  expect_failures = [output.vm_sizes]

  assert {
    condition     = [for rule, messages in output.violations : length(messages)] == [0, 1, 1, 1, 0]
    error_message = "One violation each for rdma, retired, retiring: ${jsonencode(output.violations)}"
  }
}

# The model must fit the partition's GPU memory: the engine estimates 105B in
# bf16 for training at about 1589 GiB (1565 of states, 24 of one GPU's
# activations); two ND H100 v5 VMs have 1280 GiB.
run "model_that_does_not_fit_rejected" {
  command = plan

  variables {
    partitions = {
      gpu = { vm_size = "Standard_ND96isr_H100_v5", nodes = 2, model = { parameters_billion = 105 } }
    }
  }

  expect_failures = [output.vm_sizes]

  assert {
    condition     = output.violations.gpu_memory == ["Partition \"gpu\": training of a 105B-parameter model in bf16 needs about ${format("%.0f", provider::hpcsku::gpu_memory_gib(105, "bf16", "training"))} GiB of GPU memory; 2 x Standard_ND96isr_H100_v5 has 1280 GiB. Use at least 3 nodes, or a size with more GPU memory."]
    error_message = "The gpu_memory rule should give the estimate and the nodes needed: ${jsonencode(output.violations)}"
  }
}

# Independent jobs do not share GPU memory across VMs: four NC A100 v4 VMs
# of 80 GiB each hold 320 GiB together, but a 70B model served in bf16
# (about 147 GiB) fits none of them.
run "independent_vms_each_hold_the_model" {
  command = plan

  variables {
    partitions = {
      inf = { vm_size = "Standard_NC24ads_A100_v4", nodes = 4, tightly_coupled = false, model = { parameters_billion = 70, workload = "inference" } }
    }
  }

  expect_failures = [output.vm_sizes]

  assert {
    condition     = output.violations.gpu_memory == ["Partition \"inf\": inference of a 70B-parameter model in bf16 needs about ${format("%.0f", provider::hpcsku::gpu_memory_gib(70, "bf16", "inference"))} GiB of GPU memory; each of the 4 independent VMs of Standard_NC24ads_A100_v4 has 80 GiB. Choose a size with more GPU memory per VM, or set tightly_coupled = true to shard the model over at least 2 VMs."]
    error_message = "Independent VMs should each have to hold the model: ${jsonencode(output.violations)}"
  }
}

run "model_that_fits_passes" {
  command = plan

  variables {
    partitions = {
      gpu = { vm_size = "Standard_ND96isr_H100_v5", nodes = 3, model = { parameters_billion = 70 } }
      inf = { vm_size = "Standard_NC24ads_A100_v4", model = { parameters_billion = 8, precision = "fp16", workload = "inference" } }
    }
  }

  assert {
    condition     = length(flatten(values(output.violations))) == 0
    error_message = "Both models should fit: ${jsonencode(output.violations)}"
  }
}

run "model_on_a_cpu_size_rejected" {
  command = plan

  variables {
    partitions = {
      cpu = { vm_size = "Standard_HB176rs_v4", model = { parameters_billion = 7, workload = "inference" } }
    }
  }

  expect_failures = [output.vm_sizes]

  assert {
    condition     = length(output.violations.gpu_memory) == 1 && endswith(output.violations.gpu_memory[0], "Choose a GPU size.")
    error_message = "A CPU size should be told to choose a GPU size: ${jsonencode(output.violations)}"
  }
}

# The provider's estimate validates the model input.
run "bad_model_rejected" {
  command = plan

  variables {
    partitions = {
      gpu = { vm_size = "Standard_ND96isr_H100_v5", model = { parameters_billion = 70, precision = "fp12" } }
    }
  }

  expect_failures = [var.partitions]
}

# What the model validation's message states: training needs a precision
# that can train, so a model quantised to int4 is refused under the default
# workload and taken for fine-tuning (adapters on the quantised model) or
# inference; parameters_billion is at most 100000.
run "quantised_model_cannot_train" {
  command = plan

  variables {
    partitions = {
      gpu = { vm_size = "Standard_ND96isr_H100_v5", model = { parameters_billion = 70, precision = "int4" } }
    }
  }

  expect_failures = [var.partitions]
}

run "quantised_model_fine_tunes_and_serves" {
  command = plan

  variables {
    partitions = {
      ft  = { vm_size = "Standard_ND96isr_H100_v5", model = { parameters_billion = 70, precision = "int4", workload = "fine_tuning" } }
      inf = { vm_size = "Standard_ND96isr_H100_v5", model = { parameters_billion = 70, precision = "int4", workload = "inference" } }
    }
  }

  assert {
    condition     = length(flatten(values(output.violations))) == 0
    error_message = "A quantised model should be accepted for fine-tuning and inference: ${jsonencode(output.violations)}"
  }
}

run "model_above_the_largest_size_rejected" {
  command = plan

  variables {
    partitions = {
      gpu = { vm_size = "Standard_ND96isr_H100_v5", model = { parameters_billion = 100001, workload = "inference" } }
    }
  }

  expect_failures = [var.partitions]
}

# With as_of pinned to 2024-01-01, HC44rs (retiring on 2027-05-31) is more
# than the 12-month horizon away and passes the lifecycle rules; the today
# check, through is_retired and retires_within at today's date, says
# otherwise (that it retires within the horizon, or once past 2027-05-31,
# that it is retired).
run "stale_as_of_caught_by_the_today_check" {
  command = plan

  providers = {
    hpcsku = hpcsku.stale
  }

  variables {
    target = "vm"
    partitions = {
      hpc = { vm_size = "Standard_HC44rs" }
    }
  }

  # The advisory says the retirement is after the horizon at the stale date.
  expect_failures = [check.today, check.advisories]

  assert {
    condition     = output.vm_sizes.hpc == "Standard_HC44rs" && length(flatten(values(output.violations))) == 0
    error_message = "At the stale as_of the size should pass the lifecycle rules."
  }

  assert {
    condition     = length(output.today) == 1 && strcontains(output.today[0], "Partition \"hpc\": as of today, Standard_HC44rs ") && strcontains(output.today[0], "the provider's as_of date (2024-01-01) does not show it yet. Move as_of forward, and move off the size.")
    error_message = "The today check should flag the size: ${jsonencode(output.today)}"
  }
}

run "today_check_can_be_turned_off" {
  command = plan

  providers = {
    hpcsku = hpcsku.stale
  }

  variables {
    target      = "vm"
    check_today = false
    partitions = {
      hpc = { vm_size = "Standard_HC44rs" }
    }
  }

  expect_failures = [check.advisories]

  assert {
    condition     = length(output.today) == 0
    error_message = "check_today = false should turn the today check off."
  }
}

run "bad_input_rejected" {
  command = plan

  variables {
    partitions = {
      gpu = { vm_size = "Standard_ND96isr_H100_v5", nodes = 0 }
    }
  }

  expect_failures = [var.partitions]
}
