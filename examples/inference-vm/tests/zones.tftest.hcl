# With the provider's availability_file, the VM goes to a zone of its region
# where the subscription can deploy the size: the file lists
# Standard_NC24ads_A100_v4 in eastus with zone 1 restricted, so it lands in
# zone 2. Without the file (plan.tftest.hcl) the VM is regional.

mock_provider "azurerm" {}

provider "hpcsku" {
  as_of             = "2026-11-22"
  availability_file = "tests/availability.json"
}

variables {
  resource_group_name  = "rg-inference"
  location             = "eastus"
  subnet_id            = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-inference/providers/Microsoft.Network/virtualNetworks/vnet/subnets/serving"
  admin_ssh_public_key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBuzqEw5UexSuQnTGu6vq4Pj8yFJ2uCKx8OjmGm+8yvp test"
}

run "vm_lands_in_an_unrestricted_zone" {
  command = plan

  assert {
    condition     = data.hpcsku_recommendation.inference.vm_size == "Standard_NC24ads_A100_v4"
    error_message = "The only size the availability file offers in eastus should be recommended: ${data.hpcsku_recommendation.inference.vm_size}"
  }

  assert {
    condition     = data.hpcsku_recommendation.inference.recommendations[0].deployment.zones == tolist(["2", "3"]) && azurerm_linux_virtual_machine.inference.zone == "2"
    error_message = "The VM should go to the first zone the subscription may use: zones ${jsonencode(data.hpcsku_recommendation.inference.recommendations[0].deployment.zones)}"
  }
}
