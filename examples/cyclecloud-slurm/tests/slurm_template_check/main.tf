# Test helper, not part of the module: checks a CycleCloud cluster parameters
# file against the parameters of CycleCloud's Slurm template, transcribed in
# tests/testdata/slurm_parameters.json (see its source).
#
# Problems found, one sentence each, in `problems`:
#   * a key the template has no parameter for;
#   * a machine type that is a list where the parameter is not multi-select,
#     or is neither a string nor a list of strings;
#   * a non-integer, or one below Config.MinValue, for an IntegerOnly parameter;
#   * a non-boolean for a check box or Boolean parameter;
#   * a list where a single value is due (anything but StringList and
#     multi-select parameters), or a StringList that is not a string or a list
#     of strings;
#   * a SubnetId not in the resource-group/virtual-network/subnet form;
#   * a node array zone without DefineNodesAvailabilityZone = true, which the
#     template needs to use it.
# `missing` lists what the template needs and the file lacks: parameters
# [[node defaults]] uses that have no default, and Required ones without one.

variable "template" {
  description = "tests/testdata/slurm_parameters.json, decoded (jsondecode)."
  type        = any
}

variable "parameters_json" {
  description = "The cluster parameters file, as JSON."
  type        = string
}

locals {
  given  = jsondecode(var.parameters_json)
  params = var.template.parameters

  unknown = [for k in sort(keys(local.given)) : "${k} is not a parameter of the Slurm template." if !contains(keys(local.params), k)]

  checked = {
    for k, v in local.given : k => {
      json   = jsonencode(v)
      p      = local.params[k]
      list   = can(regex("^\\[", jsonencode(v)))
      string = can(regex("^\"", jsonencode(v)))
      strs   = can(regex("^\\[", jsonencode(v))) && try(alltrue([for i in v : can(regex("^\"", jsonencode(i)))]), false)
    } if contains(keys(local.params), k)
  }

  problems = flatten([
    for k, c in local.checked : concat(
      c.p.parameter_type == "Cloud.MachineType" && c.list && !c.p.multi_select ? ["${k} is a list, but the template's ${k} takes one machine type (it is not Config.MultiSelect)."] : [],
      c.p.parameter_type == "Cloud.MachineType" && !c.string && !c.strs ? ["${k} is ${c.json}, not a machine type name."] : [],
      c.p.integer_only && !can(regex("^-?[0-9]+$", c.json)) ? ["${k} is ${c.json}, not an integer."] : [],
      c.p.integer_only && try(tonumber(c.json) < c.p.min_value, false) ? ["${k} is ${c.json}, below the template's minimum ${c.p.min_value}."] : [],
      c.p.boolean && !contains(["true", "false"], c.json) ? ["${k} is ${c.json}, not a boolean."] : [],
      c.list && !c.p.multi_select && !contains(["StringList", "Cloud.MachineType"], coalesce(c.p.parameter_type, "-")) ? ["${k} is a list, but the template's ${k} takes a single value."] : [],
      c.p.parameter_type == "StringList" && !c.string && !c.strs ? ["${k} is ${c.json}, not a string or a list of strings."] : [],
      c.p.parameter_type == "Azure.Subnet" && !can(regex("^\"[^/\"]+/[^/\"]+/[^/\"]+\"$", c.json)) ? ["${k} is ${c.json}, not resource-group/virtual-network/subnet."] : [],
    )
  ])

  zone_params = [for a in values(var.template.nodearrays) : a.Zone if a.Zone != null]
  zone_problems = [
    for k in local.zone_params : "${k} is set, but the template uses it only with ${var.template.zone_condition} = true."
    if contains(keys(local.given), k) && try(local.given[var.template.zone_condition], false) != true
  ]

  needed = distinct(concat(
    [for k in var.template.node_defaults : k if local.params[k].default == null],
    [for k, p in local.params : k if p.required && p.default == null],
  ))
}

output "problems" {
  description = "What the Slurm template would not take in the file, one sentence each; empty when none."
  value       = concat(local.unknown, local.problems, local.zone_problems)
}

output "missing" {
  description = "Parameters the template needs (no default) that the file lacks, sorted."
  value       = sort([for k in local.needed : k if !contains(keys(local.given), k)])
}

output "given" {
  description = "The file, decoded."
  value       = local.given
}
