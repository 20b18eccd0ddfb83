// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Command refresh compares the embedded catalog's data with an availability
// export and a prices file, in the formats the provider's availability_file
// and prices_file settings read, and prints what changed. With -write it
// updates data/prices.csv, the spot prices in data/spot_prices.csv (with
// their date and source) and the dates in data/catalog.json. It never adds
// a size: sizes the export has and the catalog lacks are printed as entries
// to complete from the documentation and paste into data/skus.json.
//
//	go run ./internal/azureexport/cmd/refresh -availability skus.json -prices prices.json [-write]
//
// See CONTRIBUTING.md.
package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/azureexport"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	data, availability, prices, date, priceSource string
	write                                         bool
	examples                                      int
}

func run(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := flag.NewFlagSet("refresh", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.data, "data", filepath.Join("internal", "catalog", "data"), "the catalog's data directory")
	fs.StringVar(&o.availability, "availability", "", "output of az vm list-skus --resource-type virtualMachines --all -o json")
	fs.StringVar(&o.prices, "prices", "", "Azure Retail Prices API JSON, or CSV region,vm_size,usd_per_hour[,spot_usd_per_hour]")
	fs.StringVar(&o.date, "date", time.Now().UTC().Format(catalog.DateLayout), "the date of the refreshed data (YYYY-MM-DD)")
	fs.StringVar(&o.priceSource, "price-source", "", "price_source text for catalog.json; required with -write for a CSV prices file")
	fs.BoolVar(&o.write, "write", false, "update prices.csv, spot_prices.csv and the dates in catalog.json")
	fs.IntVar(&o.examples, "examples", 5, "how many examples to print per kind of change")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./internal/azureexport/cmd/refresh [-availability FILE] [-prices FILE] [-date YYYY-MM-DD] [-write]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || (o.availability == "" && o.prices == "") {
		fs.Usage()
		return 2
	}
	if _, err := time.Parse(catalog.DateLayout, o.date); err != nil {
		fmt.Fprintf(stderr, "refresh: -date %q is not YYYY-MM-DD\n", o.date)
		return 2
	}
	if err := refresh(o, stdout); err != nil {
		fmt.Fprintln(stderr, "refresh:", err)
		return 1
	}
	return 0
}

// refresh reports what the exports change in the catalog's data and, with
// -write, writes the new prices.csv and catalog.json.
func refresh(o options, w io.Writer) error {
	cat, err := catalog.LoadDir(o.data)
	if err != nil {
		return fmt.Errorf("the catalog in %s does not load: %w", o.data, err)
	}
	fmt.Fprintf(w, "Catalog %s in %s: %d sizes, data date %s, price snapshot %s.\n",
		cat.Version, o.data, len(cat.SKUs()), cat.DataDate.Format(catalog.DateLayout), cat.PriceSnapshotDate)
	pf, files, err := reportExports(w, cat, o)
	if err != nil {
		return err
	}
	newMeta, err := refreshDates(w, cat, pf, o)
	if err != nil {
		return err
	}
	if !o.write {
		fmt.Fprintln(w, "\nNothing written (dry run). Run again with -write to update prices.csv, spot_prices.csv and catalog.json.")
		return nil
	}
	files["catalog.json"] = newMeta
	return writeData(w, o.data, files)
}

// reportExports reports on the availability and prices files given. It
// returns the prices file (nil without one) and the data files it changes
// (the merged prices.csv and spot_prices.csv), by name.
func reportExports(w io.Writer, cat *catalog.Catalog, o options) (*azureexport.PriceFile, map[string][]byte, error) {
	if o.availability != "" {
		a, err := azureexport.LoadAvailability(o.availability)
		if err != nil {
			return nil, nil, err
		}
		reportAvailability(w, cat, a, o.examples)
	}
	if o.prices == "" {
		return nil, map[string][]byte{}, nil
	}
	pf, err := azureexport.LoadPriceFile(o.prices)
	if err != nil {
		return nil, nil, err
	}
	files, err := reportPrices(w, cat, pf, o)
	if err != nil {
		return nil, nil, err
	}
	return pf, files, nil
}

// refreshDates prints the dates, and the price source when a prices file
// is given, that the refresh sets, and returns catalog.json with them.
func refreshDates(w io.Writer, cat *catalog.Catalog, pf *azureexport.PriceFile, o options) ([]byte, error) {
	fmt.Fprintln(w, "\nDates")
	meta, err := os.ReadFile(filepath.Join(o.data, "catalog.json"))
	if err != nil {
		return nil, err
	}
	newMeta := setField(meta, "data_date", o.date)
	fmt.Fprintf(w, "  data_date: %s -> %s\n", cat.DataDate.Format(catalog.DateLayout), o.date)
	if pf == nil {
		return newMeta, nil
	}
	newMeta = setField(newMeta, "price_snapshot_date", o.date)
	fmt.Fprintf(w, "  price_snapshot_date: %s -> %s\n", cat.PriceSnapshotDate, o.date)
	source := o.priceSource
	switch {
	case source == "" && pf.Format == azureexport.PriceFormatRetail:
		source = "Azure Retail Prices API (Linux Consumption meters, USD per hour), snapshot of " + o.date
	case source == "" && o.write:
		return nil, errors.New("the prices file is CSV: say where its prices come from with -price-source (the embedded prices are Linux pay-as-you-go list prices; never write negotiated prices)")
	}
	if source != "" {
		newMeta = setField(newMeta, "price_source", source)
		fmt.Fprintf(w, "  price_source: %q\n", source)
	}
	return newMeta, nil
}

// writeData writes the files given (catalog.json, and prices.csv and
// spot_prices.csv with a prices file) in the data directory, once a copy
// with them loads.
func writeData(w io.Writer, data string, files map[string][]byte) error {
	if err := checkRefreshed(data, files); err != nil {
		return err
	}
	var written []string
	for _, name := range []string{"catalog.json", "prices.csv", "spot_prices.csv"} {
		b, ok := files[name]
		if !ok {
			continue
		}
		if err := os.WriteFile(filepath.Join(data, name), b, 0o644); err != nil {
			return err
		}
		written = append(written, name)
	}
	fmt.Fprintf(w, "\nWrote %s in %s. Review with git diff, run make test (tests pin prices and rankings: update them in the same change), and record the refresh in CHANGELOG.md.\n", strings.Join(written, ", "), data)
	return nil
}

// checkRefreshed copies the data directory to a temporary one with the new
// files, and checks the result loads before the data directory is touched.
func checkRefreshed(data string, files map[string][]byte) error {
	tmp, err := os.MkdirTemp("", "refresh")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	entries, err := os.ReadDir(data)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(data, e.Name()))
		if err != nil {
			return err
		}
		if nb, ok := files[e.Name()]; ok {
			b = nb
		}
		if err := os.WriteFile(filepath.Join(tmp, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	if _, err := catalog.LoadDir(tmp); err != nil {
		return fmt.Errorf("the refreshed catalog does not load, nothing written: %w", err)
	}
	return nil
}

// reportAvailability prints the sizes the export has and the catalog lacks,
// as proposed entries, and where the export disagrees with the catalog.
func reportAvailability(w io.Writer, cat *catalog.Catalog, a *azureexport.Availability, examples int) {
	fmt.Fprintf(w, "\nAvailability file %s: %d entries, %d sizes, %d regions.\n", a.File, a.Entries, len(a.Sizes), len(a.Regions))

	proposed, other := a.NotInCatalog(cat)
	fmt.Fprintf(w, "\nNew sizes proposed: %d (GPU and HPC families; %s not in the catalog ignored)\n", len(proposed), catalog.Plural(other, "general-purpose size", "general-purpose sizes"))
	if len(proposed) > 0 {
		fmt.Fprintln(w, "  Not added: complete each entry from the documentation (series, CPU and GPU model, GPU count,")
		fmt.Fprintln(w, "  InfiniBand, sources) and paste it into data/skus.json, with a series in series.json if it is new.")
	}
	for _, s := range proposed {
		fmt.Fprintf(w, "\n  %s: %s; available in %d of %d listed regions\n", s.Name, s.Describe(), len(s.AvailableRegions()), len(s.Regions))
		b, _ := json.MarshalIndent(stub(s), "  ", "  ")
		fmt.Fprintf(w, "  %s\n", b)
	}

	var missing []string
	for _, s := range cat.SKUs() {
		if _, ok := a.Lookup(s.Name); !ok && s.Lifecycle.Status != catalog.StatusRetired {
			missing = append(missing, s.Name)
		}
	}
	fmt.Fprintf(w, "\nCatalog sizes (not retired) the file does not list: %d", len(missing))
	if len(missing) > 0 {
		fmt.Fprintf(w, " (not offered to the exporting subscription, or retired since): %s", examplesOf(missing, examples))
	}
	fmt.Fprintln(w)

	// Where the API and the catalog disagree. The catalog is kept: the API
	// is known to round or omit GPU counts and to differ on memory.
	var diffs []string
	for _, s := range cat.SKUs() {
		as, ok := a.Lookup(s.Name)
		if !ok {
			continue
		}
		sp := as.Specs
		var d []string
		if sp.VCPUs != nil && s.VCPUs != nil && *sp.VCPUs != *s.VCPUs {
			d = append(d, fmt.Sprintf("vCPUs %d (catalog %d)", *sp.VCPUs, *s.VCPUs))
		}
		if sp.MemoryGiB != nil && s.MemoryGiB != nil && math.Abs(*sp.MemoryGiB-*s.MemoryGiB) > 0.5 {
			d = append(d, fmt.Sprintf("memory %s GiB (catalog %s)", trim(*sp.MemoryGiB), trim(*s.MemoryGiB)))
		}
		if s.GPU != nil && s.GPU.Count >= 1 && sp.GPUs != nil && float64(*sp.GPUs) != s.GPU.Count {
			d = append(d, fmt.Sprintf("GPUs %d (catalog %s)", *sp.GPUs, trim(s.GPU.Count)))
		}
		if sp.RDMA != nil && *sp.RDMA != s.Network.RDMA {
			d = append(d, fmt.Sprintf("RDMA %t (catalog %t)", *sp.RDMA, s.Network.RDMA))
		}
		if sp.RetirementDate != "" && sp.RetirementDate != s.Lifecycle.RetirementDate {
			d = append(d, fmt.Sprintf("retirement %s (catalog %q)", sp.RetirementDate, s.Lifecycle.RetirementDate))
		}
		if len(d) > 0 {
			diffs = append(diffs, s.Name+": "+strings.Join(d, ", "))
		}
	}
	fmt.Fprintf(w, "\nWhere the API disagrees with the catalog: %s (the catalog is kept; check the documentation and correct data/skus.json if the API is right)\n", catalog.Plural(len(diffs), "size", "sizes"))
	for _, d := range diffs {
		fmt.Fprintf(w, "  %s\n", d)
	}
}

type priceRow struct {
	region, size string
	usd          float64
	raw          string
}

// reportPrices compares the prices file with prices.csv and spot_prices.csv
// for the catalog's sizes and returns both, merged, by name.
func reportPrices(w io.Writer, cat *catalog.Catalog, pf *azureexport.PriceFile, o options) (map[string][]byte, error) {
	fmt.Fprintf(w, "\nPrices file %s (%s): %d prices for %d sizes, %d rows skipped.\n", pf.File, pf.Format, pf.Count(), len(pf.Sizes()), pf.Skipped)
	b, err := os.ReadFile(filepath.Join(o.data, "prices.csv"))
	if err != nil {
		return nil, err
	}
	header, rows, err := readPriceRows(b)
	if err != nil {
		return nil, err
	}
	matched := matchMeters(cat, pf)
	m := mergePrices(matched, rows)
	sb, err := os.ReadFile(filepath.Join(o.data, "spot_prices.csv"))
	if err != nil {
		return nil, err
	}
	spotRows, err := readSpotRows(sb, cat.SpotSource)
	if err != nil {
		return nil, err
	}
	source := spotSource(pf, o.date)
	m.spotWritten = mergeSpot(matched, spotRows, rows, o.date, source)
	printPriceChanges(w, m, o.examples)
	printPriceNotes(w, cat, pf, matched, m, source)
	newCSV, err := writePriceRows(header, rows, bytes.Contains(b, []byte("\r\n"))) // keep the files' line endings
	if err != nil {
		return nil, err
	}
	newSpot, err := writeSpotRows(spotRows, bytes.Contains(sb, []byte("\r\n")))
	if err != nil {
		return nil, err
	}
	return map[string][]byte{"prices.csv": newCSV, "spot_prices.csv": newSpot}, nil
}

// readPriceRows reads prices.csv: its header and its rows by region and
// lower-case size.
func readPriceRows(b []byte) ([]string, map[[2]string]*priceRow, error) {
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil || len(recs) == 0 {
		return nil, nil, fmt.Errorf("prices.csv: %v", err)
	}
	rows := map[[2]string]*priceRow{}
	for _, r := range recs[1:] {
		f, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			return nil, nil, fmt.Errorf("prices.csv: %v", err)
		}
		rows[[2]string{r[0], strings.ToLower(r[1])}] = &priceRow{region: r[0], size: r[1], usd: f, raw: r[2]}
	}
	return recs[0], rows, nil
}

// priceChange is a prices.csv price the prices file changes.
type priceChange struct {
	key        string
	from, to   float64
	percentAbs float64
}

// priceMerge counts what merging the prices file into prices.csv did.
type priceMerge struct {
	changed   []priceChange // largest relative change first
	added     []string      // sorted
	unchanged int
	kept      int // prices.csv rows the file does not give
	spot      int // spot prices in the file
	// spotWritten counts the spot_prices.csv rows the file changes or adds.
	spotWritten int
}

// mergePrices lays the file's on-demand prices of the catalog's sizes over
// the rows of prices.csv, changing and adding rows in place.
func mergePrices(matched meterMatches, rows map[[2]string]*priceRow) priceMerge {
	var m priceMerge
	seen := map[[2]string]bool{}
	for _, mm := range matched.sizes {
		s := mm.size
		for region, fp := range mm.regions {
			if mm.mapped && matched.exact[[2]string{region, strings.ToLower(s.Name)}] {
				continue // the file also prices the size under its own name
			}
			if fp.SpotUSDPerHour != nil {
				m.spot++
			}
			if fp.USDPerHour == nil {
				continue
			}
			k := [2]string{region, strings.ToLower(s.Name)}
			seen[k] = true
			m.merge(rows, k, s.Name, region, *fp.USDPerHour)
		}
	}
	for k := range rows {
		if !seen[k] {
			m.kept++
		}
	}
	sort.Slice(m.changed, func(i, j int) bool {
		if m.changed[i].percentAbs != m.changed[j].percentAbs {
			return m.changed[i].percentAbs > m.changed[j].percentAbs
		}
		return m.changed[i].key < m.changed[j].key
	})
	sort.Strings(m.added)
	return m
}

// merge sets the price p of size in region in the row at k, counting it as
// unchanged, changed or added.
func (m *priceMerge) merge(rows map[[2]string]*priceRow, k [2]string, size, region string, p float64) {
	label := size + " in " + region
	if r, ok := rows[k]; ok {
		if math.Abs(r.usd-p) < 5e-7 {
			m.unchanged++
			return
		}
		m.changed = append(m.changed, priceChange{label, r.usd, p, math.Abs(p-r.usd) / r.usd})
		r.usd, r.raw = p, strconv.FormatFloat(p, 'f', 6, 64)
		return
	}
	m.added = append(m.added, label)
	rows[k] = &priceRow{region: region, size: size, usd: p, raw: strconv.FormatFloat(p, 'f', 6, 64)}
}

// printPriceChanges prints the prices changed, with examples, added and
// kept.
func printPriceChanges(w io.Writer, m priceMerge, examples int) {
	up := 0
	for _, c := range m.changed {
		if c.to > c.from {
			up++
		}
	}
	fmt.Fprintf(w, "\nPrices changed: %d (%d up, %d down); unchanged: %d\n", len(m.changed), up, len(m.changed)-up, m.unchanged)
	for i, c := range m.changed {
		if i == examples {
			fmt.Fprintf(w, "  ... and %d more\n", len(m.changed)-examples)
			break
		}
		fmt.Fprintf(w, "  %s: %s -> %s USD/h (%+.1f%%)\n", c.key, trim(c.from), trim(c.to), 100*(c.to-c.from)/c.from)
	}
	fmt.Fprintf(w, "Prices added (a catalog size in a region prices.csv did not have): %d", len(m.added))
	if len(m.added) > 0 {
		fmt.Fprintf(w, ": %s", examplesOf(m.added, examples))
	}
	fmt.Fprintf(w, "\nPrices kept (prices.csv rows the file does not give): %d\n", m.kept)
}

// printPriceNotes prints what the merge left out or mapped: sizes the
// catalog lacks, renamed meters, spot prices, and a warning for CSV files.
func printPriceNotes(w io.Writer, cat *catalog.Catalog, pf *azureexport.PriceFile, matched meterMatches, m priceMerge, spotSource string) {
	fmt.Fprintf(w, "Sizes priced in the file but not in the catalog: %d (ignored)\n", len(matched.unknown))
	if missing := inScopeUnknown(cat, matched.unknown); len(missing) > 0 {
		fmt.Fprintf(w, "  of GPU and HPC families or of the catalog's series: %d, to add as in \"Adding a size\" (CONTRIBUTING.md):\n", len(missing))
		for _, name := range missing {
			fmt.Fprintf(w, "    %s (%s)\n", name, catalog.Plural(len(pf.Prices[strings.ToLower(name)]), "region", "regions"))
		}
	}
	if len(matched.renamed) > 0 {
		fmt.Fprintf(w, "Meter names mapped to catalog sizes (D34): %s\n", strings.Join(matched.renamed, ", "))
	}
	if m.spot > 0 {
		fmt.Fprintf(w, "Spot prices in the file: %d; spot_prices.csv rows changed or added: %d, dated with the source %q\n", m.spot, m.spotWritten, spotSource)
	}
	if pf.Format == azureexport.PriceFormatCSV {
		fmt.Fprintln(w, "Note: the prices file is CSV. The embedded prices are Linux pay-as-you-go list prices: do not write negotiated prices.")
	}
}

// writePriceRows writes prices.csv: the header, then the rows sorted by
// region and size.
func writePriceRows(header []string, rows map[[2]string]*priceRow, crlf bool) ([]byte, error) {
	all := make([]*priceRow, 0, len(rows))
	for _, r := range rows {
		all = append(all, r)
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].region != all[j].region {
			return all[i].region < all[j].region
		}
		return all[i].size < all[j].size
	})
	var out bytes.Buffer
	cw := csv.NewWriter(&out)
	cw.UseCRLF = crlf
	_ = cw.Write(header)
	for _, r := range all {
		_ = cw.Write([]string{r.region, r.size, r.raw})
	}
	cw.Flush()
	return out.Bytes(), cw.Error()
}

// setField replaces the first string value of a field in catalog.json,
// keeping the rest of the file as it is.
func setField(b []byte, field, value string) []byte {
	re := regexp.MustCompile(`("` + regexp.QuoteMeta(field) + `":\s*)"(?:[^"\\]|\\.)*"`)
	v, _ := json.Marshal(value)
	done := false
	return re.ReplaceAllFunc(b, func(m []byte) []byte {
		if done {
			return m
		}
		done = true
		prefix := re.FindSubmatch(m)[1]
		return append(append([]byte{}, prefix...), v...)
	})
}

func examplesOf(list []string, n int) string {
	if len(list) <= n {
		return strings.Join(list, ", ")
	}
	return strings.Join(list[:n], ", ") + fmt.Sprintf(" and %d more", len(list)-n)
}

func trim(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
