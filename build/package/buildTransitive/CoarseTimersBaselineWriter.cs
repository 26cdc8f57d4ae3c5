// The CoarseTimersWriteBaseline task, compiled by MSBuild's RoslynCodeTaskFactory from this file (no task assembly ships).
// It reads the compiler's SARIF 2.1 log and writes CoarseTimers.baseline: one line per (rule, file, member) with the
// number of unsuppressed sites, tab-separated, sorted, files relative to the baseline's folder. Format: docs/baseline.md.
// A multi-targeted project compiles once per target framework, each with its own sites (`#if`): each build keeps its
// entries in a part file of its own, and the baseline is the union of every target's latest part (per key, the largest
// count), so whichever build finishes last writes all of them.
#nullable enable
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using Microsoft.Build.Framework;
using Microsoft.Build.Utilities;

public sealed class CoarseTimersWriteBaseline : Task
{
    private const string MemberProperty = "CoarseTimers.Member";

    [Required]
    public string SarifFile { get; set; } = "";

    [Required]
    public string BaselineFile { get; set; } = "";

    /// <summary>This target framework's part (multi-targeted projects only).</summary>
    public string PartFile { get; set; } = "";

    /// <summary>The parts of every target framework of the project, this one's included (multi-targeted projects only).</summary>
    public string[] PartFiles { get; set; } = Array.Empty<string>();

    public override bool Execute()
    {
        var folder = Path.GetDirectoryName(Path.GetFullPath(BaselineFile))!.Replace('\\', '/').TrimEnd('/') + "/";
        var counts = new SortedDictionary<string, int>(StringComparer.Ordinal);
        var log = new Json(File.ReadAllText(SarifFile)).Parse() as Dictionary<string, object?>;
        foreach (var run in Items(log, "runs"))
        {
            foreach (var result in Items(run, "results"))
            {
                var rule = Get(result, "ruleId") as string;
                if (rule is null || !rule.StartsWith("CT", StringComparison.Ordinal) || Items(result, "suppressions").Any())
                {
                    continue;
                }

                var member = Get(Get(Get(result, "properties"), "customProperties"), MemberProperty) as string;
                var uri = Get(Get(Get(Items(result, "locations").FirstOrDefault(), "physicalLocation"), "artifactLocation"), "uri") as string;
                if (member is null || uri is null)
                {
                    continue;
                }

                var path = (Uri.TryCreate(uri, UriKind.Absolute, out var absolute) && absolute.IsFile ? absolute.LocalPath : uri).Replace('\\', '/');
                if (!path.StartsWith(folder, StringComparison.Ordinal))
                {
                    Log.LogWarning(null, "CTBUILD03", null, null, 0, 0, 0, 0, "CoarseTimers: {0} is outside the baseline's folder {1}; not baselined.", path, folder);
                    continue;
                }

                var key = rule + "\t" + path.Substring(folder.Length) + "\t" + member;
                counts[key] = counts.TryGetValue(key, out var count) ? count + 1 : 1;
            }
        }

        var targets = 1;
        if (PartFile.Length > 0)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(PartFile))!);
            File.WriteAllText(PartFile, Format(counts), new UTF8Encoding(false));
            var merged = new SortedDictionary<string, int>(StringComparer.Ordinal);
            targets = 0;
            foreach (var part in PartFiles.Where(File.Exists))
            {
                targets++;
                foreach (var pair in Read(part))
                {
                    merged[pair.Key] = merged.TryGetValue(pair.Key, out var known) ? Math.Max(known, pair.Value) : pair.Value;
                }
            }

            counts = merged;
        }

        File.WriteAllText(BaselineFile, Format(counts), new UTF8Encoding(false));
        Log.LogMessage(MessageImportance.High, "CoarseTimers: wrote {0} baseline entries ({1} sites) to {2}{3}", counts.Count, counts.Values.Sum(), BaselineFile,
            targets > 1 ? $" (the union of {targets} target frameworks)" : "");
        return !Log.HasLoggedErrors;
    }

    private static string Format(SortedDictionary<string, int> counts)
    {
        var text = new StringBuilder();
        text.Append("# CoarseTimers baseline: accepted sites, one line per rule, file and member: rule<TAB>count<TAB>file<TAB>member.\n");
        text.Append("# Written by: dotnet build --no-incremental -p:CoarseTimersUpdateBaseline=true (docs/baseline.md).\n");
        foreach (var pair in counts)
        {
            var fields = pair.Key.Split('\t');
            text.Append(fields[0]).Append('\t').Append(pair.Value.ToString(CultureInfo.InvariantCulture)).Append('\t')
                .Append(fields[1]).Append('\t').Append(fields[2]).Append('\n');
        }

        return text.ToString();
    }

    // The entries of a file in the baseline's format (rule, count, file, member), keyed as above.
    private static IEnumerable<KeyValuePair<string, int>> Read(string path)
    {
        foreach (var line in File.ReadAllLines(path))
        {
            var fields = line.TrimEnd().Split('\t');
            if (line.StartsWith("#", StringComparison.Ordinal) || fields.Length != 4 || !int.TryParse(fields[1], NumberStyles.Integer, CultureInfo.InvariantCulture, out var count))
            {
                continue;
            }

            yield return new KeyValuePair<string, int>(fields[0] + "\t" + fields[2] + "\t" + fields[3], count);
        }
    }

    private static object? Get(object? node, string name) =>
        node is Dictionary<string, object?> map && map.TryGetValue(name, out var value) ? value : null;

    private static IEnumerable<object?> Items(object? node, string name) =>
        Get(node, name) as List<object?> ?? Enumerable.Empty<object?>();

    /// <summary>A minimal JSON reader (objects, arrays, strings, numbers, literals): enough for a SARIF log.</summary>
    private sealed class Json
    {
        private readonly string _s;
        private int _i;

        public Json(string s) => _s = s;

        public object? Parse()
        {
            Skip();
            var c = _s[_i];
            if (c == '{')
            {
                var map = new Dictionary<string, object?>(StringComparer.Ordinal);
                _i++;
                Skip();
                while (_s[_i] != '}')
                {
                    var key = (string)Parse()!;
                    Skip();
                    _i++; // ':'
                    map[key] = Parse();
                    Skip();
                    if (_s[_i] == ',')
                    {
                        _i++;
                        Skip();
                    }
                }

                _i++;
                return map;
            }

            if (c == '[')
            {
                var list = new List<object?>();
                _i++;
                Skip();
                while (_s[_i] != ']')
                {
                    list.Add(Parse());
                    Skip();
                    if (_s[_i] == ',')
                    {
                        _i++;
                        Skip();
                    }
                }

                _i++;
                return list;
            }

            if (c == '"')
            {
                var text = new StringBuilder();
                for (_i++; _s[_i] != '"'; _i++)
                {
                    if (_s[_i] != '\\')
                    {
                        text.Append(_s[_i]);
                        continue;
                    }

                    var e = _s[++_i];
                    switch (e)
                    {
                        case 'n': text.Append('\n'); break;
                        case 't': text.Append('\t'); break;
                        case 'r': text.Append('\r'); break;
                        case 'b': text.Append('\b'); break;
                        case 'f': text.Append('\f'); break;
                        case 'u': text.Append((char)int.Parse(_s.Substring(_i + 1, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture)); _i += 4; break;
                        default: text.Append(e); break;
                    }
                }

                _i++;
                return text.ToString();
            }

            var start = _i;
            while (_i < _s.Length && ",}] \t\r\n".IndexOf(_s[_i]) < 0)
            {
                _i++;
            }

            var literal = _s.Substring(start, _i - start);
            return literal == "null" ? null : literal;
        }

        private void Skip()
        {
            while (_i < _s.Length && char.IsWhiteSpace(_s[_i]))
            {
                _i++;
            }
        }
    }
}
