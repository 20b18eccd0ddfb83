// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/azureexport"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/userfile"
)

// The provider's overlay files: catalog_file, availability_file and
// prices_file. Each is read from disk in Configure, only when it is set.

const overlayPathNote = "Relative paths are resolved against the directory Terraform runs in; use `\"${path.module}/...\"` to name a file next to the configuration. " +
	"The file is read when the provider is configured, on every plan and apply."

// overlayFile is one overlay setting, named by its provider attribute: a
// constant, with its description and messages in the methods below.
type overlayFile string

// The overlay settings.
const (
	catalogFileSetting      overlayFile = "catalog_file"
	availabilityFileSetting overlayFile = "availability_file"
	pricesFileSetting       overlayFile = "prices_file"
)

// overlayFiles are the settings, in the order the provider reads them.
func overlayFiles() []overlayFile {
	return []overlayFile{catalogFileSetting, availabilityFileSetting, pricesFileSetting}
}

// attribute is the setting's provider schema attribute: an optional,
// non-empty path whose description ends with overlayPathNote.
func (f overlayFile) attribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: f.info().description + overlayPathNote,
		Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
	}
}

// overlayFileInfo is what the provider says about an overlay setting.
type overlayFileInfo struct {
	title       string // in summaries: "Availability File"
	what        string // what a valid file is, for the detail of an error
	description string // the schema description, before overlayPathNote
}

func (f overlayFile) info() overlayFileInfo {
	limits := userfile.DefaultLimits()
	switch f {
	case catalogFileSetting:
		return overlayFileInfo{
			title: "Catalog File",
			what:  "A catalog file is a JSON object in the embedded catalog's own format, with " + catalog.CatalogFileSections + " lists.",
			description: "Path of a JSON file in the embedded catalog's own format (`skus`, `series`, `gpu_models`, `gpu_performance`, `series_performance`, `images`, `models` and `decisions` lists, " +
				"as in the provider's `internal/catalog/data` files) that adds sizes, performance facts or models, or corrects them: new sizes, sovereign-cloud sizes, fixes. " +
				"An entry with the name of an embedded one replaces it. Decoding is strict: unknown fields, wrong types and entries listed twice are errors " +
				fmt.Sprintf("that name the file, the entry and the field. At most %d MiB. ", limits.CatalogFile>>20),
		}
	case availabilityFileSetting:
		return overlayFileInfo{
			title: "Availability File",
			what:  "An availability file is the output of az vm list-skus --resource-type virtualMachines --all -o json.",
			description: "Path of the JSON that `az vm list-skus --resource-type virtualMachines --all -o json` prints for your subscription. " +
				"With it, `region` means offered to that subscription: a size the file does not list in the region, or lists with a `Location` restriction " +
				"(`NotAvailableForSubscription`, `QuotaId`), is left out of `hpcsku_catalog` and rejected by `hpcsku_recommendation` (constraints `region` and `availability`), " +
				"and every size's `availability` carries its zones, restrictions and quota family. The catalog's own facts (GPU counts, memory, vCPUs) are kept: " +
				"the API is known to get some of them wrong. GPU and HPC sizes in the file that the catalog does not have are reported in a warning. " +
				fmt.Sprintf("At most %d MiB (a full export is 20 to 30 MB). ", limits.AvailabilityFile>>20),
		}
	case pricesFileSetting:
		return overlayFileInfo{
			title: "Prices File",
			what:  "A prices file is the JSON of the Azure Retail Prices API, or a CSV with the header region,vm_size,usd_per_hour[,spot_usd_per_hour].",
			description: "Path of a prices file that replaces the embedded prices for the sizes and regions it gives: either the JSON of the Azure Retail Prices API " +
				"(`Items` with `armSkuName`, `armRegionName`, `retailPrice`; Linux `Consumption` rows per hour are used, `Spot` meters give spot prices, " +
				"Windows, Dev/Test, reservation and low-priority rows are skipped) or a CSV with the header `region,vm_size,usd_per_hour[,spot_usd_per_hour]` " +
				"for negotiated prices. The format is told from the content. Prices are US dollars per hour for one VM. " +
				"Every price says where it comes from (`price.source`, `price_source`). " +
				fmt.Sprintf("At most %d MiB. ", limits.PricesFile>>20),
		}
	}
	return overlayFileInfo{title: string(f)}
}

// addFileError reports a problem with an overlay file on its attribute,
// naming the file, the entry and the field.
func (f overlayFile) addFileError(diags *diag.Diagnostics, err error) {
	var fe *userfile.Error
	if !errors.As(err, &fe) {
		diags.AddAttributeError(path.Root(string(f)), "Invalid "+f.info().title, fmt.Sprintf("The %s could not be used: %s", string(f), err))
		return
	}
	summary := "Invalid " + f.info().title
	if fe.Unreadable {
		summary = "Cannot Read " + f.info().title
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The %s %s could not be used.\n\n", string(f), fe.File)
	if fe.Entry != "" {
		fmt.Fprintf(&b, "Entry: %s\n", fe.Entry)
	}
	if fe.Field != "" {
		fmt.Fprintf(&b, "Field: %s\n", fe.Field)
	}
	fmt.Fprintf(&b, "Problem: %s\n\n%s Fix the file, or remove %s to use the embedded catalog.", fe.Problem, f.info().what, string(f))
	diags.AddAttributeError(path.Root(string(f)), summary, b.String())
}

// overlayPath returns the configured path, or "" when the setting is null.
func (f overlayFile) overlayPath(v types.String, diags *diag.Diagnostics) string {
	if v.IsNull() {
		return ""
	}
	if v.IsUnknown() {
		diags.AddAttributeError(path.Root(string(f)), f.info().title+" Path Unknown",
			fmt.Sprintf("The %s path must be known when the provider is configured. Use a literal path, a variable or path.module, not an attribute of a resource that is not created yet.", string(f)))
		return ""
	}
	return v.ValueString()
}

// maxListed is how many unknown sizes a warning lists one by one.
const maxListed = 20

// loadOverlays reads the overlay files that are set and lays them over the
// catalog. With none set it returns the catalog unchanged and reads nothing.
func loadOverlays(ctx context.Context, base *catalog.Catalog, cfg providerModel) (*catalog.Catalog, diag.Diagnostics) {
	var diags diag.Diagnostics
	var o catalog.Overlays
	if p := catalogFileSetting.overlayPath(cfg.CatalogFile, &diags); p != "" {
		f, err := catalog.LoadCatalogFile(p)
		if err != nil {
			catalogFileSetting.addFileError(&diags, err)
		}
		o.Catalog = f
	}
	var a *azureexport.Availability
	if p := availabilityFileSetting.overlayPath(cfg.AvailabilityFile, &diags); p != "" {
		var err error
		if a, err = azureexport.LoadAvailability(p); err != nil {
			availabilityFileSetting.addFileError(&diags, err)
		} else {
			o.Availability = a.Overlay()
		}
	}
	var pf *azureexport.PriceFile
	if p := pricesFileSetting.overlayPath(cfg.PricesFile, &diags); p != "" {
		var err error
		if pf, err = azureexport.LoadPriceFile(p); err != nil {
			pricesFileSetting.addFileError(&diags, err)
		} else {
			o.Prices = pf.Overlay()
		}
	}
	if diags.HasError() {
		return nil, diags
	}
	if o.Catalog == nil && a == nil && pf == nil {
		return base, diags
	}
	cat, rep, err := base.WithOverlays(o)
	if err != nil {
		catalogFileSetting.addFileError(&diags, err)
		return nil, diags
	}
	fields := map[string]any{}
	if f := o.Catalog; f != nil {
		fields["catalog_file"] = f.File
		fields["sizes_added"] = len(rep.SizesAdded)
		fields["sizes_replaced"] = len(rep.SizesReplaced)
	}
	if a != nil {
		fields["availability_file"] = a.File
		fields["availability_entries"] = a.Entries
		fields["availability_regions"] = len(a.Regions)
		overlayAvailabilityWarnings(&diags, cat, a)
	}
	if pf != nil {
		fields["prices_file"] = pf.File
		fields["prices_format"] = pf.Format
		fields["prices_applied"] = rep.PricesApplied
		overlayPriceWarnings(&diags, cat, pf, rep)
	}
	tflog.Info(ctx, "overlay files applied", fields)
	return cat, diags
}

func overlayAvailabilityWarnings(diags *diag.Diagnostics, cat *catalog.Catalog, a *azureexport.Availability) {
	attr := path.Root(string(availabilityFileSetting))
	known := 0
	for _, s := range cat.SKUs() {
		if len(s.Availability) > 0 {
			known++
		}
	}
	if known == 0 {
		diags.AddAttributeWarning(attr, "Availability File Lists No Catalog Size",
			fmt.Sprintf("The availability file %s lists %d sizes in %d regions, none of them in the catalog, so every size is treated as not offered. "+
				"Export it with az vm list-skus --resource-type virtualMachines --all -o json (without --all, restricted sizes are left out).",
				a.File, len(a.Sizes), len(a.Regions)))
	}
	unknown, others := a.NotInCatalog(cat)
	if len(unknown) == 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The availability file %s lists %s that the catalog (version %s) does not have. "+
		"They cannot be looked up or recommended until the catalog has their specifications: add them with catalog_file, or upgrade the provider.\n\n"+
		"What the file reports (MemoryGB is GiB; vCPUsAvailable is used for constrained-core sizes; GPU counts from the API are missing or rounded for some sizes):\n",
		a.File, overlayPlural(len(unknown), "GPU or HPC size", "GPU or HPC sizes"), cat.Version)
	for i, s := range unknown {
		if i == maxListed {
			fmt.Fprintf(&b, "  - and %d more\n", len(unknown)-maxListed)
			break
		}
		regions := s.AvailableRegions()
		where := "restricted in every region it lists"
		if len(regions) > 0 {
			where = "available in " + strings.Join(firstStrings(regions, 5), ", ")
			if len(regions) > 5 {
				where += fmt.Sprintf(" and %d more regions", len(regions)-5)
			}
		}
		fmt.Fprintf(&b, "  - %s: %s; %s\n", s.Name, s.Describe(), where)
	}
	if others > 0 {
		fmt.Fprintf(&b, "\n%s in the file outside the families the catalog covers (general-purpose sizes) ignored.", overlayPlural(others, "other size", "other sizes"))
	}
	diags.AddAttributeWarning(attr, "Sizes Not In The Catalog", strings.TrimRight(b.String(), "\n"))
}

func overlayPriceWarnings(diags *diag.Diagnostics, cat *catalog.Catalog, p *azureexport.PriceFile, rep *catalog.OverlayReport) {
	attr := path.Root(string(pricesFileSetting))
	if rep.PricesApplied == 0 {
		diags.AddAttributeWarning(attr, "Prices File Prices No Catalog Size",
			fmt.Sprintf("The prices file %s (%s) has %d prices, none of them for a size in the catalog, so every price is the embedded one. "+
				"Check the size names (armSkuName in the Retail Prices API, vm_size in CSV), for example Standard_ND96isr_H100_v5.", p.File, p.Format, p.Count()))
	}
	unpriced, _ := p.NotInCatalog(cat)
	if len(unpriced) == 0 {
		return
	}
	diags.AddAttributeWarning(attr, "Prices For Sizes Not In The Catalog",
		fmt.Sprintf("The prices file %s prices %s that the catalog does not have; their prices are not used: %s. "+
			"Add the sizes with catalog_file to use them.", p.File, overlayPlural(len(unpriced), "GPU or HPC size", "GPU or HPC sizes"), strings.Join(firstStrings(unpriced, maxListed), ", ")))
}

// overlayPlural is "1 size" or "2 sizes".
func overlayPlural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func firstStrings(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
